"""Feasible regions without drags, from Blockly's own geometry (for generated tasks).

* Start region: the grid points where a press hits the source block (hit testing the page; a
  shadow input stands for its block, as a drag from it moves the block).
* End region: the drop points for which, with the block grabbed at the anchor, the closest
  compatible connection pair within Blockly's snap radius is the intended one. Candidates are
  the workspace's connections (excluding the dragged stack's own); the dragged block offers its
  previous/output connection and its stack's last next connection, as Blockly's drag does.

This approximates what real drags do (Blockly's search radius grows once a candidate is
highlighted, and the intermediate pointer moves matter); ``agreement`` measures how closely.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from scratch_gym.editor.page import EditorPage
from scratch_gym.single_drag.drag_model import compatible, subtree
from scratch_gym.single_drag.feasible.geometry import Geometry, _conn, connection_pair
from scratch_gym.single_drag.tasks.regions import Region, Regions
from scratch_gym.single_drag.tasks.task import DragTask

CANVAS_X = (313.0, 782.0)  # the workspace's screen span; drops elsewhere delete or miss
CANVAS_Y = (93.0, 720.0)
OPPOSITE = {"previous": "next", "next": "previous", "output": "input", "input": "output"}


def geometric_regions(page: EditorPage, task: DragTask, step: int = 5) -> Regions:
    """Start and end regions of ``task`` (its view already set up on ``page``)."""
    geo = Geometry.read(page)
    src = geo.source_block(task)
    left, top, w, h = src["path"]
    grid = _grid(left - step, top - step, left + w + step, top + h + step, step)
    hits = page.bridge.single_drag_hit_test(src["id"], grid.tolist())
    start = Region.of([(int(x), int(y)) for x, y in hits], step)
    if len(start) == 0:
        raise RuntimeError(f"task {task.id}: no point of the source block can be pressed")
    anchor = start.interior_point()
    end = Region.of(end_points(geo, task, anchor, step), step)
    return Regions(start, end, anchor, "geometry", {"snap_radius_px": geo.snap_radius})


def end_points(
    geo: Geometry, task: DragTask, anchor: tuple[float, float], step: int
) -> list[tuple[int, int]]:
    """Grid drop points whose nearest connection pair in reach is the intended one."""
    mine, target = connection_pair(geo, task)
    radius = geo.snap_radius
    dragged = _dragged_connections(geo, task)
    candidates = _candidates(geo, task)
    r = radius + 2 * step
    x0 = anchor[0] + target[0] - mine[0]
    y0 = anchor[1] + target[1] - mine[1]
    grid = _grid(x0 - r, y0 - r, x0 + r, y0 + r, step)
    out = []
    for ex, ey in grid:
        if not (CANVAS_X[0] <= ex < CANVAS_X[1] and CANVAS_Y[0] <= ey < CANVAS_Y[1]):
            continue
        dx, dy = ex - anchor[0], ey - anchor[1]
        best, best_d = None, radius
        for kind, mx, my, check, is_intended_mine in dragged:
            px, py = mx + dx, my + dy
            for c in candidates.get(OPPOSITE[kind], []):
                if not compatible(check, c.get("check")):
                    continue
                d = float(np.hypot(c["x"] - px, c["y"] - py))
                if d <= best_d:
                    best_d = d
                    best = is_intended_mine and (c["x"], c["y"]) == target
        if best:
            out.append((int(ex), int(ey)))
    return out


def _dragged_connections(
    geo: Geometry, task: DragTask
) -> list[tuple[str, float, float, Any, bool]]:
    """(kind, x, y, check, is the intended one) of the dragged block, as it will be dragged."""
    mine, _ = connection_pair(geo, task)
    src = geo.source_block(task)
    conns: list[tuple[str, dict[str, Any]]] = []
    for kind in ("previous", "output"):
        c = _conn(src, kind, None)
        if c:
            conns.append((kind, c))
    last = src if task.source.origin == "flyout" else geo.stack_last(src["id"])
    nxt = _conn(last, "next", None)
    if nxt and not nxt["target"]:
        conns.append(("next", nxt))
    out = []
    for kind, c in conns:
        x, y = src["origin"] if task.source.origin == "flyout" else (c["x"], c["y"])
        intended = abs(x - mine[0]) < 0.01 and abs(y - mine[1]) < 0.01
        out.append((kind, x, y, c.get("check"), intended))
    return out


def _candidates(geo: Geometry, task: DragTask) -> dict[str, list[dict[str, Any]]]:
    """Workspace connections a dragged block may snap to, by type (its own stack excluded)."""
    excluded: set[str] = set()
    if task.source.origin == "canvas":
        excluded = subtree({b["id"]: b for b in geo.data["canvas"]}, task.source.block or "")
    out: dict[str, list[dict[str, Any]]] = {}
    for b in geo.data["canvas"]:
        if b["id"] in excluded or b["shadow"]:
            continue
        for c in b["connections"]:
            if c["type"] == "previous" and not b["top"]:
                continue  # only the top of a stack takes a block above it
            if c["type"] == "output":
                continue  # dragging a statement/reporter onto a lone reporter: not modelled
            out.setdefault(c["type"], []).append(c)
    return out


def _grid(x0: float, y0: float, x1: float, y1: float, step: int) -> np.ndarray:
    xs = np.arange(np.ceil(x0 / step) * step, x1 + 1e-9, step)
    ys = np.arange(np.ceil(y0 / step) * step, y1 + 1e-9, step)
    return np.array([(x, y) for y in ys for x in xs], dtype=np.float64).reshape(-1, 2)


def agreement(a: Region, b: Region) -> dict[str, float]:
    """Overlap of two regions on the same grid: IoU and the share of each inside the other."""
    sa = {tuple(p) for p in a.points.tolist()}
    sb = {tuple(p) for p in b.points.tolist()}
    inter = len(sa & sb)
    union = len(sa | sb) or 1
    return {
        "iou": inter / union,
        "precision": inter / (len(sa) or 1),  # share of a (geometry) inside b (BFS)
        "recall": inter / (len(sb) or 1),
    }
