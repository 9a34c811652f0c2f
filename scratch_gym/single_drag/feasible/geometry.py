"""Blockly's connection geometry on screen: the source block, the connection pair a task needs,
and the seed points the region search starts from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scratch_gym.editor.page import EditorPage
from scratch_gym.single_drag.drag_model import stack_last
from scratch_gym.single_drag.tasks.task import DragTask


@dataclass
class Geometry:
    """``single_drag.geometry`` from the bridge: blocks with screen boxes and connections."""

    data: dict[str, Any]

    @classmethod
    def read(cls, page: EditorPage) -> Geometry:
        return cls(page.bridge.single_drag_geometry())

    @property
    def ws_scale(self) -> float:
        return float(self.data["scale"])

    @property
    def flyout_scale(self) -> float:
        return float(self.data.get("flyout_scale", 0.675))

    @property
    def snap_radius(self) -> float:
        return float(self.data["snap_radius_px"])

    def canvas_block(self, block_id: str) -> dict[str, Any]:
        for b in self.data["canvas"]:
            if b["id"] == block_id:
                return b
        raise KeyError(f"block {block_id!r} is not in the workspace")

    def flyout_block(self, opcode: str, nth: int = 0) -> dict[str, Any]:
        found = sorted(
            (b for b in self.data["flyout"] if b["opcode"] == opcode), key=lambda b: b["path"][1]
        )
        if len(found) <= nth:
            raise KeyError(f"the palette shows {len(found)} '{opcode}' block(s), not {nth + 1}")
        return found[nth]

    def source_block(self, task: DragTask) -> dict[str, Any]:
        src = task.source
        if src.origin == "flyout":
            return self.flyout_block(src.opcode or "", src.nth)
        return self.canvas_block(src.block or "")

    def stack_last(self, block_id: str) -> dict[str, Any]:
        """The last block of the stack that hangs below ``block_id`` (itself when alone)."""
        self.canvas_block(block_id)  # a clear KeyError for an unknown block
        return stack_last({b["id"]: b for b in self.data["canvas"]}, block_id)


def _conn(block: dict[str, Any], kind: str, input_name: str | None) -> dict[str, Any] | None:
    for c in block["connections"]:
        if c["type"] == kind and (input_name is None or c["input"] == input_name):
            if kind == "next" and input_name is None and c["input"] is not None:
                continue  # a statement input (SUBSTACK), not the block's own next
            return c
    return None


def connection_pair(
    geo: Geometry, task: DragTask
) -> tuple[tuple[float, float], tuple[float, float]]:
    """(the dragged block's connection, the target connection) on screen, for the task's goal:
    the dragged connection as Blockly sees it during the drag (for a palette block: its top-left
    corner, where the pinned editor keeps every connection of a block created by a drag)."""
    src = geo.source_block(task)
    rel = task.main_relation()
    other = geo.canvas_block(rel.block)
    if rel.rel == "below":
        target, mine = _conn(other, "next", None), _conn(src, "previous", None)
    elif rel.rel == "input":
        target = _conn(other, "input", rel.input) or _conn(other, "next", rel.input)
        mine = _conn(src, "output", None) or _conn(src, "previous", None)
    else:
        target = _conn(other, "previous", None)
        last = src if task.source.origin == "flyout" else geo.stack_last(src["id"])
        mine = _conn(last, "next", None)
    if target is None or mine is None:
        raise ValueError(f"task {task.id}: no connection pair for goal {rel}")
    x, y = mine["x"], mine["y"]
    if task.source.origin == "flyout":
        x, y = src["origin"]  # see drag_model: a palette block's connections sit at its corner
    return (x, y), (target["x"], target["y"])


def start_seeds(geo: Geometry, task: DragTask) -> list[tuple[float, float]]:
    """Points likely on the source block's own body (its label area near the top-left)."""
    left, top, w, h = geo.source_block(task)["path"]
    return [
        (left + 10, top + min(h / 2, 14)),
        (left + 6, top + 8),
        (left + min(w / 2, 30), top + min(h / 2, 12)),
        (left + 4, top + h / 2),
    ]


def end_seed(geo: Geometry, task: DragTask, anchor: tuple[float, float]) -> tuple[float, float]:
    """The drop point that puts the dragged connection exactly on the target connection."""
    mine, target = connection_pair(geo, task)
    return anchor[0] + target[0] - mine[0], anchor[1] + target[1] - mine[1]
