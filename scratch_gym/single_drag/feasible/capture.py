"""What decides a drag on one task, captured from the editor: the pick map, the compatible
connection pairs and the drag constants that ``drag_model`` turns into outcomes
(``drag_model.stack_tables`` stacks captures into drag tables). Probing the drag model
(``probe.ModelProber``) and the fast path's snapshots (``fast.snapshot``) both start here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from scratch_gym.editor.page import EditorPage
from scratch_gym.single_drag.drag_model import Pair, compile_pairs, marker_heights
from scratch_gym.single_drag.feasible.geometry import Geometry
from scratch_gym.single_drag.tasks.task import DragTask

PICK_STEP = 2


@dataclass
class DragCapture:
    """What decides a drag on one task (``drag_model.stack_tables`` turns captures into drag tables)."""

    task: DragTask
    pick_step: int
    labels: np.ndarray  # (rows, cols) uint8
    picks: list[dict[str, Any]]  # {opcode, flyout, source, id, marker_px}
    pairs: list[Pair]
    intended: list[bool]  # per pair: connecting it achieves the goal
    config: dict[str, float]  # drag constants (workspace units, degrees)
    scale: float
    workspace: tuple[float, float, float, float]  # left, top, right, bottom (px)
    delete_right: float


def capture_drag(page: EditorPage, task: DragTask) -> DragCapture:
    """Capture what decides a drag on ``task``, whose view is already set up on ``page``."""
    geometry = page.bridge.single_drag_geometry()
    cap = page.bridge.single_drag_capture(PICK_STEP)
    labels = np.array(cap["labels"], np.uint8).reshape(cap["rows"], cap["cols"])
    if len(cap["picks"]) > 255:
        raise RuntimeError(f"task {task.id}: {len(cap['picks'])} pickable blocks (at most 255)")
    source_id = _source_id(geometry, task)
    markers = marker_heights(geometry, cap["picks"])
    picks = [
        {
            "opcode": p["opcode"],
            "flyout": p["flyout"],
            "source": p["id"] == source_id,
            "id": p["id"] if not p["flyout"] else None,
            "marker_px": round(h, 3),
        }  # fmt: skip
        for p, h in zip(cap["picks"], markers, strict=True)
    ]
    pairs = compile_pairs(geometry, cap["picks"])
    goal = goal_formed(task)
    intended = [p.formed == goal and picks[p.pick - 1]["source"] for p in pairs]
    ws = cap["workspace_rect"]
    fly = cap["flyout_rect"]
    return DragCapture(
        task=task,
        pick_step=PICK_STEP,
        labels=labels,
        picks=picks,
        pairs=pairs,
        intended=intended,
        config=cap["config"],
        scale=float(geometry["scale"]),
        workspace=(ws[0], ws[1], ws[0] + ws[2], ws[1] + ws[3]),
        delete_right=float(fly[0] + fly[2]),
    )


def _source_id(geometry: dict[str, Any], task: DragTask) -> str:
    return str(Geometry(geometry).source_block(task)["id"])


def goal_formed(task: DragTask) -> str:
    """The connection (in ``drag_model`` terms) the task's main goal relation asks for."""
    rel = task.main_relation()
    if rel.rel == "below":
        return f"below:{rel.block}"
    if rel.rel == "input":
        return f"input:{rel.input}:{rel.block}"
    return f"above:{rel.block}"
