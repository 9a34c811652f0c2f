"""The continuous drag action for RL: ``Box(4)`` in [-1, 1] mapped onto the viewport."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from scratch_gym.actions.errors import ActionError
from scratch_gym.actions.primitive import PrimitiveAction, drag
from scratch_gym.editor.page import VIEWPORT, EditorPage


def drag_box_space() -> spaces.Box:
    """(x0, y0, x1, y1), each in [-1, 1]; -1 is the left/top edge, +1 the right/bottom edge."""
    return spaces.Box(low=-1.0, high=1.0, shape=(4,), dtype=np.float32)


def to_pixels(u: float, size: int) -> float:
    """Map [-1, 1] onto pixel centres 0 .. size-1."""
    return (float(u) + 1.0) / 2.0 * (size - 1)


def parse_drag_box(action: Any) -> PrimitiveAction:
    """Validate a Box(4) action and map it to a pixel drag; out-of-range values are clipped."""
    try:
        arr = np.asarray(action, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError) as exc:
        raise ActionError(
            f"the drag action must be 4 numbers in [-1, 1], got {action!r:.80}"
        ) from exc
    if arr.size != 4:
        raise ActionError(f"the drag action must be 4 numbers (x0, y0, x1, y1), got {arr.size}")
    if not np.all(np.isfinite(arr)):
        raise ActionError(f"the drag action must be finite numbers, got {arr.tolist()}")
    clipped_arr = np.clip(arr, -1.0, 1.0)
    w, h = VIEWPORT
    start = (to_pixels(clipped_arr[0], w), to_pixels(clipped_arr[1], h))
    end = (to_pixels(clipped_arr[2], w), to_pixels(clipped_arr[3], h))
    clipped = []
    if np.any(arr[:2] != clipped_arr[:2]):
        clipped.append("start")
    if np.any(arr[2:] != clipped_arr[2:]):
        clipped.append("end")
    return PrimitiveAction(type="drag", start=start, end=end, clipped=clipped)


class DragBoxActionModel:
    """The RL-facing continuous drag (``Box(4)``)."""

    settle_frames = 2
    defers_flyout = False

    def __init__(self) -> None:
        self.space = drag_box_space()

    def parse(self, raw: Any) -> PrimitiveAction:
        return parse_drag_box(raw)

    def runs_scripts(self, parsed: PrimitiveAction) -> bool:
        return True  # a click on a script runs it

    def execute(self, page: EditorPage, parsed: PrimitiveAction) -> dict[str, Any]:
        assert parsed.start is not None and parsed.end is not None
        drag(page, parsed.start, parsed.end)
        return {"executed_action": parsed.to_info(), "clipped": list(parsed.clipped)}

    def ends_episode(self, parsed: PrimitiveAction) -> bool:
        return False

    def use_elements(self, source: Any) -> None:
        """Drags name points, not elements: nothing to look up."""
