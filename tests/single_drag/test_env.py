"""ScratchWorld-SingleDrag-v0 and -Pixels-v0 in the real editor."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from stable_baselines3.common.env_checker import check_env as sb3_check_env

import scratch_gym  # noqa: F401  (registers the ids)
from scratch_gym.agents.single_drag import DragOracleAgent
from scratch_gym.single_drag import tokens
from scratch_gym.single_drag.tasks.instructions import MARK_COLOUR


@pytest.mark.browser
def test_pixels_variant_passes_the_sb3_checker():
    """(Gymnasium's check_env runs on every registered id in tests/env/test_primitive_env.py.)"""
    env = gym.make("ScratchWorld-SingleDragPixels-v0", tasks=["si-01"])
    try:
        sb3_check_env(env.unwrapped, warn=False)
        obs, _ = env.reset(seed=3)
        assert obs["pixels"].shape == (72, 128, 3)
        assert obs["instruction"].shape == (tokens.INSTRUCTION_TOKENS,)
        assert obs["instruction"].max() > 0
    finally:
        env.close()


def test_oracle_drag_is_rewarded_and_a_wrong_drop_is_not(drag_env):
    obs, info = drag_env.reset(options={"task": "dc-05"})
    oracle = DragOracleAgent()
    oracle.bind(drag_env)  # the regions come through the env's privileged channel
    oracle.reset(drag_env.task)
    action = oracle.act(obs, info)
    start = action["start"]
    _, reward, terminated, truncated, info = drag_env.step(action)
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert info["start_correct"] and info["end_correct"]
    assert info["start_error_px"] == 0.0 and info["end_error_px"] == 0.0

    drag_env.reset(options={"task": "dc-05"})
    _, reward, _, _, info = drag_env.step({"start": start, "end": (700.0, 650.0)})
    assert reward == 0.0
    assert info["start_correct"] and not info["end_correct"]
    assert info["end_error_px"] > 50


def test_gt_start_setting_marks_and_states_the_start(drag_env):
    obs, _ = drag_env.reset(options={"task": "dc-07", "setting": "gt_start"})
    x, y = drag_env.task.regions.anchor
    assert f"({x:.0f}, {y:.0f})" in obs["instruction"]
    ring = obs["screenshot"][int(y) - 9 : int(y) + 10, int(x) - 9 : int(x) + 10]
    assert np.any(np.all(ring == np.array(MARK_COLOUR, np.uint8), axis=-1))
    obs, _ = drag_env.reset(options={"task": "dc-07", "setting": "knowledge"})
    assert "Rules for dragging blocks" in obs["instruction"]


def test_bad_action_is_reported_and_ends_the_episode(drag_env):
    drag_env.reset(options={"task": "dc-01"})
    _, reward, terminated, _, info = drag_env.step({"start": [1, 2]})
    assert reward == 0.0 and terminated
    assert "end" in info["last_action_error"]
