"""The table of registered environment ids: presets of the environment classes' parts.

Registration happens on ``import scratch_gym``; ``gym.make("scratch_gym:ID")`` imports it too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym

SCRATCH_ENV = "scratch_gym.env:ScratchEnv"


@dataclass(frozen=True)
class EnvId:
    """One registered id: which class, with which keyword arguments, for whom."""

    entry_point: str
    kwargs: dict[str, Any] = field(default_factory=dict)
    doc: str = ""


ENV_IDS: dict[str, EnvId] = {
    "ScratchWorld-Primitive-v0": EnvId(
        SCRATCH_ENV,
        {"action": "primitive", "observation": "screen"},
        "LLM agents: 1280x720 screenshot + instruction + last error; click/drag/type/key/... actions",
    ),
    "ScratchWorld-PrimitivePixels-v0": EnvId(
        SCRATCH_ENV,
        {"action": "drag", "observation": "pixels"},
        "RL (stable-baselines3): small screenshot (obs_size, default 128x72); Box(4) continuous drag",
    ),
    "ScratchWorld-Composite-v0": EnvId(
        SCRATCH_ENV,
        {"action": "composite", "observation": "pseudocode"},
        "LLM agents: program text with numbered blocks; semantic edits as JSON {api, args}",
    ),
}


def register_all() -> None:
    """Register every id. They are flagged ``nondeterministic``: the editor runs scripts in real
    time and info reports wall-clock timings, so two identical steps need not match exactly
    (resets are deterministic: the same project gives the same screen, which tests check)."""
    for env_id, spec in ENV_IDS.items():
        if env_id not in gym.registry:
            gym.register(
                id=env_id,
                entry_point=spec.entry_point,
                kwargs=dict(spec.kwargs),
                nondeterministic=True,
            )
