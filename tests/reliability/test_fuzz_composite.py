"""A short fuzz run of the composite action space (the full 10,000: `scratch-gym fuzz --env
ScratchWorld-Composite-v0`)."""

from __future__ import annotations

import random

import gymnasium as gym
import pytest

from scratch_gym.reliability.fuzz import composite_actions, composite_is_valid, fuzz


@pytest.mark.slow
@pytest.mark.browser
def test_composite_fuzz_no_crash_specific_errors_state_kept_no_code_run():
    env = gym.make("ScratchWorld-Composite-v0")
    try:
        report = fuzz(env, composite_actions(random.Random(11)), 100, is_valid=composite_is_valid)
    finally:
        env.close()
    assert report.actions == 100
    assert report.invalid >= 30, report.summary()  # adversarial enough to exercise the errors
    assert report.invalid <= 90, report.summary()  # and valid often enough to edit the project
    assert report.crashes == []
    assert report.missing_errors == []
    assert report.state_changed_by_invalid == []
    assert report.hangs == []
    assert not report.code_executed
