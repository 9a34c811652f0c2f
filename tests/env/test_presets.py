"""Presets are validated: an argument the id's models do not take is an error naming it."""

from __future__ import annotations

import gymnasium as gym
import pytest

import scratch_gym  # noqa: F401  (registers the ids)


@pytest.mark.parametrize(
    ("env_id", "kwargs", "argument"),
    [
        ("ScratchWorld-PrimitivePixels-v0", {"ocr": "rapidocr"}, "ocr"),
        ("ScratchWorld-Composite-v0", {"obs_size": (64, 36)}, "obs_size"),
        ("ScratchWorld-Primitive-v0", {"max_elements": 16}, "max_elements"),
        ("ScratchWorld-SingleDrag-v0", {"obs_size": (64, 36)}, "obs_size"),
    ],
)
def test_inapplicable_argument_names_itself_and_the_id(
    env_id: str, kwargs: dict, argument: str
) -> None:
    with pytest.raises(TypeError) as excinfo:
        gym.make(env_id, **kwargs)
    message = str(excinfo.value)
    assert f"argument {argument}=" in message
    assert env_id in message


def test_applicable_arguments_still_build() -> None:
    env = gym.make("ScratchWorld-PrimitivePixels-v0", obs_size=(64, 36))
    try:
        assert env.observation_space.shape == (36, 64, 3)
    finally:
        env.close()
    env = gym.make("ScratchWorld-PrimitiveElements-v0", max_elements=16)
    try:
        assert env.observation_space["mask"].shape == (16,)
    finally:
        env.close()
