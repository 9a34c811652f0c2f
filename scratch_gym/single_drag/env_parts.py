"""The Single-Step Drag environment's action and observation models.

They implement the same protocols as :class:`~scratch_gym.envs.scratch.ScratchEnv`'s parts
(:class:`~scratch_gym.actions.base.ActionModel`,
:class:`~scratch_gym.observations.base.ObservationModel`), so :class:`SingleDragEnv` is put
together the same way: an editor page, an action model that turns the agent's action into the one
drag, and an observation model that owns what is shown (and the wait for paint). The RL spaces are
the fast path's (:mod:`scratch_gym.single_drag.rl_spaces`), so a policy trained there runs here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces

from scratch_gym.actions.errors import ActionError
from scratch_gym.actions.primitive import PrimitiveAction, parse_primitive_action
from scratch_gym.editor.page import VIEWPORT, EditorPage
from scratch_gym.observations.base import EpisodeText
from scratch_gym.observations.elements import fuse
from scratch_gym.observations.pixels import screen_space
from scratch_gym.single_drag import editor_drag, tokens
from scratch_gym.single_drag.rl_spaces import (
    ACTIONS,
    OBSERVATIONS,
    action_space,
    elements_space,
    encode_elements,
    pixels_space,
    points_of,
)
from scratch_gym.single_drag.tasks.instructions import mark_start
from scratch_gym.spaces import UnicodeText

_TOKENS = tokens.INSTRUCTION_TOKENS  # the instruction's length in token ids


@dataclass
class DragEpisodeText(EpisodeText):
    """The episode's text, and the start point to circle on the screen (``gt_start``)."""

    mark: tuple[float, float] | None = None


def points_space() -> spaces.Dict:
    w, h = VIEWPORT
    point = spaces.Box(np.array([0, 0], np.float32), np.array([w - 1, h - 1], np.float32))
    return spaces.Dict({"start": point, "end": point})


class OneDragAction:
    """The agent's action as one drag: ``"points"`` (start and end pixels), ``"box"`` or
    ``"grid"`` (the RL encodings). Performing it waits for the editor to settle."""

    settle_frames = 2
    defers_flyout = False

    def __init__(self, mode: str = "points") -> None:
        if mode not in ACTIONS:
            raise ValueError(f"action must be one of {ACTIONS}, got {mode!r}")
        self.mode = mode
        self.space = points_space() if mode == "points" else action_space(mode)

    def parse(self, raw: Any) -> PrimitiveAction:
        if self.mode != "points":
            return points_of(self.mode, raw)
        if not isinstance(raw, dict):
            raise ActionError(f"the action must be a dict with 'start' and 'end', got {raw!r:.80}")
        return parse_primitive_action({"action_type": "drag", **raw})

    def execute(self, page: EditorPage, parsed: PrimitiveAction) -> dict[str, Any]:
        assert parsed.start is not None and parsed.end is not None
        editor_drag.perform(page, parsed.start, parsed.end)
        return {"executed_action": parsed.to_info(), "clipped": list(parsed.clipped)}

    def ends_episode(self, parsed: Any) -> bool:
        return False  # the drag itself ends the episode (the environment decides)

    def runs_scripts(self, parsed: Any) -> bool:
        return False  # ``editor_drag.perform`` runs the frame loop for the drop itself

    def use_elements(self, source: Callable[[], Sequence[Any] | None]) -> None:
        """No element-index actions here."""


class DragScreenObservation:
    """LLM-facing: ``{"screenshot": (720, 1280, 3) uint8, "instruction": str}``, the start
    point circled when the episode marks it."""

    paint_frames = 2

    def __init__(self) -> None:
        self.space = spaces.Dict({"screenshot": screen_space(), "instruction": UnicodeText()})

    def observe(self, page: EditorPage, text: EpisodeText) -> dict[str, Any]:
        return {"screenshot": _marked(page.screenshot(), text), "instruction": text.instruction}

    def blank(self, text: EpisodeText) -> dict[str, Any]:
        shot = np.zeros(self.space["screenshot"].shape, np.uint8)
        return {"screenshot": shot, "instruction": text.instruction}

    def shown_elements(self) -> Sequence[Any] | None:
        return None


class DragPixelsObservation:
    """RL: the screenshot resized to ``size`` and the instruction as token ids."""

    paint_frames = 2

    def __init__(self, size: tuple[int, int] = (128, 72)) -> None:
        self.size = (int(size[0]), int(size[1]))
        self.space = pixels_space(self.size)

    def observe(self, page: EditorPage, text: EpisodeText) -> dict[str, Any]:
        shot = _marked(page.screenshot(self.size), text)
        return {"pixels": shot, "instruction": tokens.encode(text.instruction, _TOKENS)}

    def blank(self, text: EpisodeText) -> dict[str, Any]:
        shot = np.zeros(self.space["pixels"].shape, np.uint8)
        return {"pixels": shot, "instruction": tokens.encode(text.instruction, _TOKENS)}

    def shown_elements(self) -> Sequence[Any] | None:
        return None


class DragElementsObservation:
    """RL: the instruction's token ids and the editor's element list as arrays."""

    paint_frames = 0  # read from the DOM, not the painted screen

    def __init__(self) -> None:
        self.space = elements_space()

    def observe(self, page: EditorPage, text: EpisodeText) -> dict[str, Any]:
        instruction = tokens.encode(text.instruction, _TOKENS)
        return {"instruction": instruction, **encode_elements(read_elements(page))}

    def blank(self, text: EpisodeText) -> dict[str, Any]:
        instruction = tokens.encode(text.instruction, _TOKENS)
        return {"instruction": instruction, **encode_elements([])}

    def shown_elements(self) -> Sequence[Any] | None:
        return None  # the arrays carry the elements; actions do not refer to them by index


def observation_model(
    kind: str, obs_size: tuple[int, int] | None
) -> DragScreenObservation | DragPixelsObservation | DragElementsObservation:
    """The observation model ``kind``; ``obs_size`` applies to ``"pixels"`` only."""
    if kind not in OBSERVATIONS:
        raise ValueError(f"observation must be one of {OBSERVATIONS}, got {kind!r}")
    if obs_size is not None and kind != "pixels":
        raise TypeError(
            f"argument obs_size={obs_size!r} does not apply to the {kind!r} observation; "
            "it applies to observation='pixels'"
        )
    if kind == "screen":
        return DragScreenObservation()
    if kind == "pixels":
        return DragPixelsObservation(obs_size or (128, 72))
    return DragElementsObservation()


def _marked(shot: np.ndarray, text: EpisodeText) -> np.ndarray:
    mark = getattr(text, "mark", None)
    return shot if mark is None else mark_start(shot, mark)


def read_elements(page: EditorPage) -> list[dict[str, Any]]:
    """The DOM element list as the RL observation encodes it (no block ids, no OCR)."""
    return [
        {k: v for k, v in e.to_dict().items() if k not in ("block_id", "opcode", "index")}
        for e in fuse(page.bridge.elements_list())
    ]
