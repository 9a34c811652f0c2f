"""The table of registered environment ids: presets of the environment classes' parts.

Registration happens on ``import scratch_gym``; ``gym.make("scratch_gym:ID")`` imports it too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym

SCRATCH_ENV = "scratch_gym.envs.scratch:ScratchEnv"


@dataclass(frozen=True)
class EnvId:
    """One registered id: which class, with which keyword arguments, for whom."""

    entry_point: str
    kwargs: dict[str, Any] = field(default_factory=dict)
    doc: str = ""
    vector_entry_point: str | None = None


ENV_IDS: dict[str, EnvId] = {
    "ScratchWorld-Primitive-v0": EnvId(
        SCRATCH_ENV,
        {"action": "primitive", "observation": "screen_elements"},
        "LLM agents: 1280x720 screenshot, element list (DOM boxes; observation="
        "'screen_elements_ocr' fuses PaddleOCR text as the paper does, 'screen' drops the list), "
        "instruction, last error; click/drag/type/key/...",
    ),
    "ScratchWorld-PrimitivePixels-v0": EnvId(
        SCRATCH_ENV,
        {"action": "drag", "observation": "pixels"},
        "RL (stable-baselines3): small screenshot (obs_size, default 128x72); Box(4) continuous drag",
    ),
    "ScratchWorld-PrimitiveElements-v0": EnvId(
        SCRATCH_ENV,
        {"action": "drag", "observation": "element_arrays"},
        "RL: up to max_elements screen elements as fixed arrays with a mask; Box(4) continuous drag",
    ),
    "ScratchWorld-Composite-v0": EnvId(
        SCRATCH_ENV,
        {"action": "composite", "observation": "pseudocode"},
        "LLM agents: program text with numbered blocks; semantic edits as JSON {api, args}",
    ),
    "ScratchWorld-Program-v0": EnvId(
        "scratch_gym.envs.program:ProgramEnv",
        {},
        "NL2Scratch-style: a description in, a whole scratchblocks program out; SAC and unit tests",
    ),
    "ScratchWorld-SingleDrag-v0": EnvId(
        "scratch_gym.envs.single_drag:SingleDragEnv",
        {"action": "points", "observation": "screen"},
        "Single-Step Drag, LLM agents: 1280x720 screenshot + instruction; one drag (start, end "
        "pixels) per episode; reward 1 if the intended connection formed",
    ),
    "ScratchWorld-SingleDragPixels-v0": EnvId(
        "scratch_gym.envs.single_drag:SingleDragEnv",
        {"action": "box", "observation": "pixels"},
        "Single-Step Drag, RL: small screenshot (obs_size) + instruction token ids; Box(4) drag "
        "(action='grid': 10 px grab/drop cells); tasks='generated' for unlimited tasks",
    ),
    "ScratchWorld-SingleDragElements-v0": EnvId(
        "scratch_gym.envs.single_drag:SingleDragEnv",
        {"action": "grid", "observation": "elements"},
        "Single-Step Drag, RL: element list as arrays + instruction token ids; grid drag "
        "(MultiDiscrete grab/drop cells of 10 px)",
    ),
    "ScratchWorld-SingleDragFast-v0": EnvId(
        "scratch_gym.envs.single_drag_fast:SingleDragFastEnv",
        {"observation": "pixels", "action": "grid"},
        "Single-Step Drag on the fast path: a captured task pool (pool=DIR) stepped in numpy, "
        "same spaces as the real RL ids; gym.make_vec(..., vectorization_mode="
        "'vector_entry_point') gives the batched VectorEnv",
        vector_entry_point="scratch_gym.envs.single_drag_fast:SingleDragVectorEnv",
    ),
    "ScratchWorld-Perception-v0": EnvId(
        "scratch_gym.envs.perception:PerceptionEnv",
        {},
        "Visual Perception QA: one screenshot + question (connection/existence/field); text answer",
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
                vector_entry_point=spec.vector_entry_point,
            )
