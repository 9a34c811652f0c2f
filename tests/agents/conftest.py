"""One primitive-mode environment (real Chromium, real editor) for the agent tests."""

from __future__ import annotations

import gymnasium as gym
import pytest

import scratch_gym  # noqa: F401  (registers the ids)

TASK = "say-hello"  # golden = start + one stack with an edited input


@pytest.fixture(scope="session")
def primitive_env():
    env = gym.make("ScratchWorld-Primitive-v0", reward_mode="sparse", render_mode="rgb_array")
    yield env
    env.close()
