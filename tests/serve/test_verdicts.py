"""scratch-gym's own verdict on a project a ScratchWorld runner exported (``verdict_agreement``)."""

from __future__ import annotations

import pytest

from scratch_gym.serve.verdicts import Run, agreement, judge
from tests.serve.conftest import require_checkout


def test_agreement_counts_a_run_without_our_verdict_as_not_agreeing():
    runs = [Run("task", "a", "x", True, None, True), Run("task", "b", "x", False, None, None)]
    assert agreement(runs) == 0.5 and agreement([]) is None


@pytest.mark.browser
def test_a_task_verdict_is_the_scratchworld_evaluation_of_the_sb3(tmp_path):
    checkout = require_checkout()
    static = checkout / "scratch-gui" / "static"
    runs = [
        Run("task", "say_hello", "golden", True, static / "say_hello_golden.sb3"),
        Run("task", "say_hello", "start", True, static / "default.sb3"),
        Run("task", "say_hello", "no export", False, tmp_path / "missing.sb3"),
    ]
    judge(checkout, runs)
    assert [r.ours for r in runs] == [True, False, None]
    assert [r.agrees for r in runs] == [True, False, False]
