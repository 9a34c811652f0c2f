"""ScratchWorld-Composite-v0's observations after text steps (Gymnasium's checker runs on every id
in tests/env/test_primitive_env.py)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import scratch_gym  # noqa: F401


@pytest.mark.browser
def test_observation_holds_pseudocode_fields_and_the_actions_result():
    env = gym.make("ScratchWorld-Composite-v0")
    try:
        obs, _ = env.reset()
        assert env.observation_space.contains(obs)
        obs, *_ = env.step('{"api": "add_block", "args": {"opcode": "motion_movesteps"}}')
        assert env.observation_space.contains(obs)
        assert obs["pseudocode"] == "1  move (10) steps"
        assert obs["fields"] == "1 motion_movesteps: STEPS = 10 (number)"
        assert obs["last_action_result"] == "added block 1: move (10) steps (a new script)"
        _, _, terminated, _, _ = env.step({"api": "done"})
        assert terminated
    finally:
        env.close()


@pytest.mark.browser
def test_render_after_a_text_step_shows_the_painted_result():
    """Composite steps do not wait for paint; render() does, so its frame is final."""
    env = gym.make("ScratchWorld-Composite-v0", render_mode="rgb_array")
    try:
        env.reset()
        before = env.render()
        _, _, _, _, info = env.step({"api": "select_stage", "args": {}})
        assert info["settled"] and info["editing_target"] == "Stage"
        first = env.render()
        assert first.shape == (720, 1280, 3) and not np.array_equal(first, before)
        assert np.array_equal(first, env.render())  # nothing left to paint
    finally:
        env.close()
