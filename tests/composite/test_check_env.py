"""Gymnasium's environment checker on ScratchWorld-Composite-v0."""

from __future__ import annotations

import gymnasium as gym
from gymnasium.utils.env_checker import check_env

import scratch_gym  # noqa: F401


def test_check_env_passes():
    env = gym.make("ScratchWorld-Composite-v0")
    try:
        check_env(env.unwrapped, skip_render_check=True)
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
