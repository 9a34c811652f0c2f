"""Fixtures of the composite-mode tests: one ScratchWorld-Composite-v0 environment per module."""

from __future__ import annotations

import gymnasium as gym
import pytest

import scratch_gym  # noqa: F401  (registers the ids)
from tests.composite.driver import Driver


@pytest.fixture(scope="module")
def composite_env():
    env = gym.make("ScratchWorld-Composite-v0")
    yield env
    env.close()


@pytest.fixture
def driver(composite_env) -> Driver:
    """A driver on a freshly reset environment (empty project, Sprite1 selected)."""
    composite_env.reset()
    return Driver(composite_env)
