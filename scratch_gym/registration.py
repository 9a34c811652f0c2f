"""The table of registered environment ids: presets of ScratchEnv's parts.

Registration happens on ``import scratch_gym``; ``gym.make("scratch_gym:ID")`` imports it too.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym

ENTRY_POINT = "scratch_gym.env:ScratchEnv"

# id -> (keyword arguments of ScratchEnv, one-line description)
ENV_IDS: dict[str, tuple[dict[str, Any], str]] = {
    "ScratchWorld-Primitive-v0": (
        {"action": "primitive", "observation": "screen"},
        "LLM agents: 1280x720 screenshot + instruction + last error; click/drag/type/key/... actions",
    ),
    "ScratchWorld-PrimitivePixels-v0": (
        {"action": "drag", "observation": "pixels"},
        "RL (stable-baselines3): small screenshot (obs_size, default 128x72); Box(4) continuous drag",
    ),
}


def register_all() -> None:
    """Register every id. They are flagged ``nondeterministic``: the editor runs scripts in real
    time and info reports wall-clock timings, so two identical steps need not match exactly
    (resets are deterministic: the same project gives the same screen, which tests check)."""
    for env_id, (kwargs, _doc) in ENV_IDS.items():
        if env_id not in gym.registry:
            gym.register(
                id=env_id, entry_point=ENTRY_POINT, kwargs=dict(kwargs), nondeterministic=True
            )
