"""The RL-facing spaces of the single-drag environments, shared by the real and the fast paths.

Observations (no privileged data: no regions, no block ids, no target coordinates):

* ``pixels``: ``Dict(pixels=Box(h, w, 3, uint8), instruction=Box(0, V-1, (64,), int64))``, the
  screenshot resized to ``obs_size`` (gt_start: with the start point circled) and the
  instruction as token ids (``tokens.py``).
* ``elements``: ``Dict(instruction=..., element_box=Box(0, 1, (K, 4)), element_type=Box(0, 17,
  (K,), int64), element_tokens=Box(0, V-1, (K, 6), int64))``: the editor's element list (DOM
  boxes scaled by the viewport, type ids ``1 + ELEMENT_TYPES.index``, text as token ids), at
  most ``K`` = 128 elements in the list's order, zero-padded. Where a scene shows more, the
  editor's chrome (buttons, tabs, menus, labels) is dropped first, never a block or an input:
  generated scenes show 50-110 elements, 20-60 of them blocks and inputs.

Actions:

* ``box``: ``Box(4)`` in [-1, 1]: (x0, y0, x1, y1) mapped onto the 1280x720 viewport.
* ``grid``: ``MultiDiscrete([128, 72, 128, 72])``: grab cell and drop cell of a 10 px grid (the
  drag runs between cell centres). 10 px is under half the smallest snap radius of the tasks
  (48 units at zoom 0.5 = 24 px), so every feasible end region holds a cell centre.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from scratch_gym.actions.drag_box import drag_box_space
from scratch_gym.actions.errors import ActionError
from scratch_gym.actions.primitive import PrimitiveAction
from scratch_gym.editor.page import VIEWPORT
from scratch_gym.observations.elements import ELEMENT_TYPES
from scratch_gym.single_drag import tokens

GRID_CELL = 10
GRID = (VIEWPORT[0] // GRID_CELL, VIEWPORT[1] // GRID_CELL)
MAX_ELEMENTS = 128
# Element types a drag grabs or drops on: kept first when a list is longer than MAX_ELEMENTS.
KEPT_FIRST = ("block", "flyout_block", "input", "dropdown")
OBSERVATIONS = ("screen", "pixels", "elements")
ACTIONS = ("points", "box", "grid")


def instruction_space() -> spaces.Box:
    return spaces.Box(0, tokens.size() - 1, (tokens.INSTRUCTION_TOKENS,), np.int64)


def pixels_space(obs_size: tuple[int, int]) -> spaces.Dict:
    w, h = obs_size
    return spaces.Dict(
        {
            "pixels": spaces.Box(0, 255, (h, w, 3), np.uint8),
            "instruction": instruction_space(),
        }
    )


def elements_space(max_elements: int = MAX_ELEMENTS) -> spaces.Dict:
    k, v = max_elements, tokens.size()
    return spaces.Dict(
        {
            "instruction": instruction_space(),
            "element_box": spaces.Box(0.0, 1.0, (k, 4), np.float32),
            "element_type": spaces.Box(0, len(ELEMENT_TYPES), (k,), np.int64),
            "element_tokens": spaces.Box(0, v - 1, (k, tokens.ELEMENT_TOKENS), np.int64),
        }
    )


def batched_elements(obs: dict[str, Any]) -> dict[str, np.ndarray]:
    """An ``elements`` observation as a batch: one observation gains a leading axis of 1, a batch
    is kept as it is."""
    single = elements_space()
    return {
        k: np.asarray(v)[None] if np.ndim(v) == len(single[k].shape) else np.asarray(v)
        for k, v in obs.items()
    }


def grid_space() -> spaces.MultiDiscrete:
    return spaces.MultiDiscrete([GRID[0], GRID[1], GRID[0], GRID[1]])


def action_space(action: str) -> spaces.Space:
    if action == "box":
        return drag_box_space()
    if action == "grid":
        return grid_space()
    raise ValueError(f"RL action must be 'box' or 'grid', got {action!r}")


def encode_elements(elements: Sequence[dict[str, Any]], max_elements: int = MAX_ELEMENTS) -> dict:
    """Element dicts (``type``, ``text``, ``x``, ``y``, ``w``, ``h``) as the ``elements`` arrays."""
    k = max_elements
    out = {
        "element_box": np.zeros((k, 4), np.float32),
        "element_type": np.zeros(k, np.int64),
        "element_tokens": np.zeros((k, tokens.ELEMENT_TOKENS), np.int64),
    }
    w, h = VIEWPORT
    scale = np.array([w, h, w, h], np.float32)
    for i, el in enumerate(kept_elements(elements, k)):
        box = np.array([el["x"], el["y"], el["w"], el["h"]], np.float32) / scale
        out["element_box"][i] = np.clip(box, 0.0, 1.0)
        kind = el.get("type")
        out["element_type"][i] = 1 + ELEMENT_TYPES.index(kind) if kind in ELEMENT_TYPES else 0
        out["element_tokens"][i] = tokens.encode(str(el.get("text", "")), tokens.ELEMENT_TOKENS)
    return out


def kept_elements(elements: Sequence[dict[str, Any]], k: int) -> list[dict[str, Any]]:
    """At most ``k`` elements, in their order: blocks and inputs before the editor's chrome."""
    elements = list(elements)
    if len(elements) <= k:
        return elements
    rank = sorted(
        range(len(elements)), key=lambda i: (elements[i].get("type") not in KEPT_FIRST, i)
    )
    return [elements[i] for i in sorted(rank[:k])]


def points_of(action: str, raw: Any) -> PrimitiveAction:
    """The drag an RL action stands for; ActionError (a clear message) when it is malformed."""
    if action == "box":
        from scratch_gym.actions.drag_box import parse_drag_box

        return parse_drag_box(raw)
    try:
        arr = np.asarray(raw).reshape(-1)
        ok = arr.size == 4 and np.all(np.isfinite(arr.astype(np.float64)))
    except (TypeError, ValueError):
        ok = False
    if not ok or np.any(arr.astype(np.float64) != np.round(arr.astype(np.float64))):
        raise ActionError(
            f"the grid action must be 4 integers (grab column, row, drop column, row), got {raw!r:.80}"
        )
    cells = arr.astype(np.int64)
    clipped = np.clip(cells, 0, np.array([*GRID, *GRID]) - 1)
    start, end = grid_points(cells[None])
    flags = [
        n
        for n, sl in (("start", slice(0, 2)), ("end", slice(2, 4)))
        if np.any(cells[sl] != clipped[sl])
    ]
    return PrimitiveAction(
        type="drag",
        start=(float(start[0, 0]), float(start[0, 1])),
        end=(float(end[0, 0]), float(end[0, 1])),
        clipped=flags,
    )


def grid_cells(points: np.ndarray) -> np.ndarray:
    """Pixel points (..., 2) to the grid cells that hold them."""
    cells = np.floor(np.asarray(points, np.float64) / GRID_CELL).astype(np.int64)
    return np.clip(cells, 0, np.array(GRID) - 1)


def grid_points(action: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Batched grid actions (B, 4) to (start, end) pixel points at the cell centres, clipped."""
    a = np.clip(np.asarray(action, np.int64), 0, np.array([*GRID, *GRID]) - 1)
    centres = (a + 0.5) * GRID_CELL
    return centres[:, :2].astype(np.float32), centres[:, 2:].astype(np.float32)


def box_points(action: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Batched ``Box(4)`` actions (B, 4) to (start, end) pixel points, clipped to the viewport."""
    a = np.clip(np.nan_to_num(np.asarray(action, np.float32)), -1.0, 1.0)
    size = np.array([VIEWPORT[0] - 1, VIEWPORT[1] - 1] * 2, np.float32)
    p = (a + 1.0) / 2.0 * size
    return p[:, :2], p[:, 2:]
