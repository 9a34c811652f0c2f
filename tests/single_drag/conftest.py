"""One SingleDragEnv per test session for the single-drag tests (its page is reused)."""

from __future__ import annotations

import pytest

from scratch_gym.envs.single_drag import SingleDragEnv


@pytest.fixture(scope="session")
def drag_env():
    env = SingleDragEnv()
    yield env
    env.close()
