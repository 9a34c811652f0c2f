"""A short fuzz run of the primitive action space (the full 10,000: `scratch-gym fuzz`)."""

from __future__ import annotations

import random

import gymnasium as gym
import pytest

from scratch_gym.reliability.fuzz import fuzz, primitive_actions, primitive_is_valid


@pytest.mark.slow
@pytest.mark.browser
def test_primitive_fuzz_no_crash_specific_errors_state_kept_no_code_run():
    env = gym.make("ScratchWorld-Primitive-v0")
    try:
        report = fuzz(env, primitive_actions(random.Random(7)), 120, is_valid=primitive_is_valid)
    finally:
        env.close()
    assert report.actions == 120
    assert report.invalid >= 40  # the generator is adversarial enough to exercise the errors
    assert report.crashes == []
    assert report.missing_errors == []
    assert report.state_changed_by_invalid == []
    assert report.hangs == []
    assert not report.code_executed
