"""scratch-gym's own verdict on a project a ScratchWorld runner exported (``verdict_agreement``)."""

from __future__ import annotations

import pytest

from scratch_gym.serve.verdicts import Run, agreement, judge, keep_failed
from tests.serve.conftest import require_checkout


def test_agreement_counts_a_run_without_our_verdict_as_not_agreeing():
    runs = [Run("task", "a", "x", True, None, True), Run("task", "b", "x", False, None, None)]
    assert agreement(runs) == 0.5 and agreement([]) is None


def test_the_result_folders_of_failed_or_disagreeing_runs_are_kept(tmp_path):
    folders = {}
    for name in ("passed", "failed", "disagreed", "unjudged"):
        folders[name] = tmp_path / "work" / name
        folders[name].mkdir(parents=True)
        (folders[name] / "result.json").write_text(name)
    runs = [
        Run("task", "passed", "agent-s2/primitive", True, None, True, folders["passed"]),
        Run("task", "failed", "agent-s2/primitive", False, None, False, folders["failed"]),
        Run("task", "disagreed", "awm/composite", True, None, False, folders["disagreed"]),
        Run("task", "unjudged", "drag", True, None, None, folders["unjudged"]),
        Run("task", "no-folder", "drag", False, None, False, None),
    ]
    kept = keep_failed(runs, tmp_path / "failed-runs")
    assert sorted(p.name for p in kept) == [
        "agent-s2-primitive-failed",
        "awm-composite-disagreed",
        "drag-unjudged",
    ]
    assert (tmp_path / "failed-runs" / "agent-s2-primitive-failed" / "result.json").read_text() == (
        "failed"
    )
    assert not (tmp_path / "failed-runs" / "agent-s2-primitive-passed").exists()


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
