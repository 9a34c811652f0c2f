"""The fast drag model: a drag's outcome as a pure numpy function of captured editor geometry.

What the real editor does with one drag (scratch-blocks on Blockly 12, read from the pinned
editor's code), and how it is modelled:

1. **Grab.** The press picks the block under the pointer (a shadow stands for its parent; a
   palette block for a new copy of itself): the captured pick map (one label per ``step`` px).
   A block created from the palette keeps all its connections at its top-left corner during
   the drag (measured: the editor renders it only after the drop), so a palette block's
   connection point is that corner, not where its notch is drawn.
2. **Drag start.** ``actions.primitive.drag`` presses, moves 6 px along the drag, then moves to
   the end in 3 equal steps. A drag starts at the first move farther than ``dragRadius`` (3 px)
   from the press, or ``flyoutDragRadius`` (10 px) in the palette; a palette drag must also head
   within ``dragAngleRange`` (70 degrees) of horizontal, else it scrolls the palette.
3. **Candidates.** At every move, each of the dragged block's connections (its own, plus its
   stack's last free next) looks for the closest compatible workspace connection within the
   search radius: ``snapRadius`` (48 units) with no candidate yet, ``connectingSnapRadius`` (68)
   while one is highlighted. The current candidate is kept unless the new one is closer by more
   than ``currentConnectionPreference`` (20 units), even when it has drifted out of reach.
   Compatibility (``ConnectionChecker.doDragChecks``) is decided once, at capture, per pair of
   (dragged connection, workspace connection); a pair is then just a vector between the two.
4. **Drop.** Outside the workspace the drag is reverted; over the palette or the category menu
   the block is deleted; otherwise the highlighted candidate connects.

Every distance is in screen pixels (the workspace units times the zoom).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

THRESHOLD_PX = 6.0  # actions.primitive.DRAG_THRESHOLD_PX (kept equal by a test)
PATH_STEPS = 3  # actions.primitive.DRAG_STEPS - 1 interpolated moves after the threshold move
OPPOSITE = {"previous": "next", "next": "previous", "output": "input", "input": "output"}


@dataclass
class Pair:
    """One (dragged connection, workspace connection) pair Blockly would accept."""

    pick: int  # 1-based pick label of the dragged block
    dx: float  # workspace connection minus dragged connection, at the drag's start (px)
    dy: float
    formed: str  # what connecting it makes: below:B, input:NAME:B, above:B, takes:B


def compile_pairs(geometry: dict[str, Any], picks: list[dict[str, Any]]) -> list[Pair]:
    """Every compatible pair for every pickable block, from ``single_drag.geometry`` data."""
    canvas = {b["id"]: b for b in geometry["canvas"]}
    flyout = {b["id"]: b for b in geometry["flyout"]}
    out: list[Pair] = []
    for label, pick in enumerate(picks, start=1):
        if pick["flyout"]:
            block = flyout.get(pick["id"])
            if block is None:
                continue
            dragged = {block["id"]}
            # A block created from the palette keeps every connection at its top-left corner
            # for the whole drag (the pinned editor renders it only after the drop).
            left, top = block["origin"]
            local = [(c, left, top) for c in block["connections"]]
        else:
            block = canvas[pick["id"]]
            dragged = subtree(canvas, block["id"])
            local = [(c, c["x"], c["y"]) for c in block["connections"]]
            last = stack_last(canvas, block["id"])
            if last["id"] != block["id"]:
                local += [(c, c["x"], c["y"]) for c in last["connections"] if _own_next(c)]
        for conn, lx, ly in local:
            mine = _local_kind(conn, dragged)
            if mine is None:
                continue
            for other in canvas.values():
                if other["id"] in dragged or other["shadow"]:
                    continue
                for cand in other["connections"]:
                    if _accepts(mine, conn, block, other, cand, canvas, dragged):
                        out.append(
                            Pair(label, cand["x"] - lx, cand["y"] - ly, _formed(other, cand))
                        )
    return out


def _own_next(c: dict[str, Any]) -> bool:
    return c["type"] == "next" and c["input"] is None


def _local_kind(conn: dict[str, Any], dragged: set[str]) -> str | None:
    """The dragged connection's type, or None when it cannot connect (it is occupied)."""
    kind = conn["type"]
    occupied = conn["target"] is not None and conn["target"] in dragged
    if kind in ("previous", "output"):
        return kind  # detached by the drag
    if kind == "next":  # the block's own next, or a statement input (SUBSTACK) that wraps
        return None if occupied else kind
    if kind == "input":
        return None if conn["target"] is not None else kind  # a shadow occupies it too
    return None


def _accepts(
    mine: str,
    conn: dict[str, Any],
    block: dict[str, Any],
    other: dict[str, Any],
    cand: dict[str, Any],
    canvas: dict[str, dict[str, Any]],
    dragged: set[str],
) -> bool:
    """Blockly's safety, type and drag checks for dragged ``conn`` against workspace ``cand``."""
    if cand["type"] != OPPOSITE[mine]:
        return False
    if not compatible(conn.get("check"), cand.get("check")):
        return False
    if other["opcode"] == "procedures_prototype":
        return False
    if other["opcode"] == "procedures_definition" and cand["input"] == "custom_block":
        return False
    occupant = cand["target"] if cand["target"] not in dragged else None
    kind = cand["type"]
    if kind == "previous":
        return occupant is None and other["top"]
    if kind == "output":
        return occupant is None
    if kind == "next" and occupant is not None:
        blocker = canvas.get(occupant)
        has_next = any(_own_next(c) for c in block["connections"])
        occupant_has_next = bool(blocker and any(_own_next(c) for c in blocker["connections"]))
        if not has_next and not cand.get("target_shadow") and occupant_has_next:
            return False
    return True


def compatible(a: Any, b: Any) -> bool:
    """Blockly's type check: unchecked connections fit anything, else the checks must share."""
    if not a or not b:
        return True
    return bool(set(a) & set(b))


def _formed(other: dict[str, Any], cand: dict[str, Any]) -> str:
    kind, name, bid = cand["type"], cand["input"], other["id"]
    if kind == "next":
        return f"below:{bid}" if name is None else f"input:{name}:{bid}"
    if kind == "input":
        return f"input:{name}:{bid}"
    if kind == "previous":
        return f"above:{bid}"
    return f"takes:{bid}"


def subtree(canvas: dict[str, dict[str, Any]], block_id: str) -> set[str]:
    """The block, everything nested in it and every block below it in its stack."""
    out, todo = set(), [block_id]
    while todo:
        bid = todo.pop()
        if bid in out or bid not in canvas:
            continue
        out.add(bid)
        for c in canvas[bid]["connections"]:
            if c["type"] in ("next", "input") and c["target"]:
                todo.append(c["target"])
    return out


def stack_last(canvas: dict[str, dict[str, Any]], block_id: str) -> dict[str, Any]:
    block = canvas[block_id]
    while True:
        nxt = next((c for c in block["connections"] if _own_next(c)), None)
        if not nxt or not nxt["target"] or nxt["target"] not in canvas:
            return block
        block = canvas[nxt["target"]]


# -- the batched outcome ----------------------------------------------------------------------------
@dataclass
class DragTables:
    """Per-task drag tables, stacked over a pool of ``T`` tasks (padded)."""

    step: int
    labels: np.ndarray  # (T, rows, cols) uint8 pick labels, 0 = nothing
    pick_flyout: np.ndarray  # (T, D + 1) bool; index 0 is "nothing"
    pick_source: np.ndarray  # (T, D + 1) bool: the task's intended block
    pair_v: np.ndarray  # (T, D + 1, P, 2) float32
    pair_valid: np.ndarray  # (T, D + 1, P) bool
    pair_intended: np.ndarray  # (T, D + 1, P) bool
    radii: np.ndarray  # (T, 3) float32: snap, connecting, preference (px)
    workspace: np.ndarray  # (T, 4) float32: left, top, right, bottom (px)
    delete_right: np.ndarray  # (T,) float32: drops left of this delete the block
    drag_radius: float = 3.0
    flyout_drag_radius: float = 10.0
    angle_range: float = 70.0

    def __len__(self) -> int:
        return len(self.labels)


@dataclass
class DragOutcome:
    """Arrays of shape (B,) for a batch of drags."""

    pick: np.ndarray  # label of the grabbed block (0: nothing was dragged)
    pair: np.ndarray  # index of the pair that connected, -1 for none
    deleted: np.ndarray
    reverted: np.ndarray
    start_correct: np.ndarray
    success: np.ndarray


def stack_tables(snaps: Sequence[Any]) -> DragTables:
    """The drag tables of several captures (``feasible.capture.DragCapture``, or the fast path's
    snapshots), padded to common sizes."""
    t = len(snaps)
    rows = max(s.labels.shape[0] for s in snaps)
    cols = max(s.labels.shape[1] for s in snaps)
    d = max(len(s.picks) for s in snaps) + 1
    per_pick = [np.bincount([p.pick for p in s.pairs], minlength=d) for s in snaps]
    p = max(1, max(int(c.max()) if len(c) else 0 for c in per_pick))
    labels = np.zeros((t, rows, cols), np.uint8)
    flyout = np.zeros((t, d), bool)
    source = np.zeros((t, d), bool)
    vec = np.zeros((t, d, p, 2), np.float32)
    valid = np.zeros((t, d, p), bool)
    intended = np.zeros((t, d, p), bool)
    radii = np.zeros((t, 3), np.float32)
    workspace = np.zeros((t, 4), np.float32)
    delete_right = np.zeros(t, np.float32)
    step = snaps[0].pick_step
    for i, s in enumerate(snaps):
        if s.pick_step != step:
            raise ValueError(
                f"task {s.task.id}: pick step {s.pick_step}, the first capture's is {step}"
            )
        labels[i, : s.labels.shape[0], : s.labels.shape[1]] = s.labels
        for j, pick in enumerate(s.picks, start=1):
            flyout[i, j] = pick["flyout"]
            source[i, j] = pick["source"]
        fill = np.zeros(d, np.int64)
        for pair, ok in zip(s.pairs, s.intended, strict=True):
            k = fill[pair.pick]
            vec[i, pair.pick, k] = (pair.dx, pair.dy)
            valid[i, pair.pick, k] = True
            intended[i, pair.pick, k] = ok
            fill[pair.pick] += 1
        cfg = s.config
        radii[i] = (
            np.array(
                [
                    cfg["snap_radius"],
                    cfg["connecting_snap_radius"],
                    cfg["current_connection_preference"],
                ]
            )
            * s.scale
        )
        workspace[i] = s.workspace
        delete_right[i] = s.delete_right
    cfg = snaps[0].config
    return DragTables(
        step=step,
        labels=labels,
        pick_flyout=flyout,
        pick_source=source,
        pair_v=vec,
        pair_valid=valid,
        pair_intended=intended,
        radii=radii,
        workspace=workspace,
        delete_right=delete_right,
        drag_radius=float(cfg["drag_radius"]),
        flyout_drag_radius=float(cfg["flyout_drag_radius"]),
        angle_range=float(cfg["drag_angle_range"]),
    )


def simulate(
    tables: DragTables, task: np.ndarray, start: np.ndarray, end: np.ndarray
) -> DragOutcome:
    """Outcomes of drags ``start`` -> ``end`` (each (B, 2), pixels) on tasks ``task`` (B,)."""
    task = np.asarray(task, dtype=np.int64)
    start = np.asarray(start, dtype=np.float32)
    end = np.asarray(end, dtype=np.float32)
    b = np.arange(len(task))
    rows, cols = tables.labels.shape[1:]
    r = np.clip(np.rint(start[:, 1] / tables.step).astype(np.int64), 0, rows - 1)
    c = np.clip(np.rint(start[:, 0] / tables.step).astype(np.int64), 0, cols - 1)
    pick = tables.labels[task, r, c].astype(np.int64)
    flyout = tables.pick_flyout[task, pick]

    move = end - start
    length = np.hypot(move[:, 0], move[:, 1])
    safe = np.where(length > 0, length, 1.0)
    unit = np.where(length[:, None] > 0, move / safe[:, None], np.array([1.0, 0.0], np.float32))
    first = unit * THRESHOLD_PX
    deltas = [first] + [first + (move - first) * (k / PATH_STEPS) for k in range(1, PATH_STEPS + 1)]
    radius = np.where(flyout, tables.flyout_drag_radius, tables.drag_radius)
    angle = np.degrees(np.arctan2(move[:, 1], move[:, 0]))
    rng = tables.angle_range
    towards = (np.abs(angle) < rng) | (angle < -180 + rng) | (angle > 180 - rng)

    vectors = tables.pair_v[task, pick]  # (B, P, 2)
    valid = tables.pair_valid[task, pick]
    snap, connecting, preference = (tables.radii[task, i] for i in range(3))
    started = np.zeros(len(task), bool)
    blocked = np.zeros(len(task), bool)  # a palette drag that became a palette scroll
    cand = np.full(len(task), -1, np.int64)
    for delta in deltas:
        moved = np.hypot(delta[:, 0], delta[:, 1]) > radius
        begins = moved & ~started & ~blocked & (pick > 0)
        blocked |= begins & flyout & ~towards
        started |= begins & ~(flyout & ~towards)
        dist = np.hypot(vectors[..., 0] - delta[:, None, 0], vectors[..., 1] - delta[:, None, 1])
        reach = np.where(cand >= 0, connecting, snap)
        dist = np.where(valid & (dist <= reach[:, None]), dist, np.inf)
        new = np.argmin(dist, axis=1)
        new_d = dist[b, new]
        has_new = np.isfinite(new_d)
        cur_d = dist_to(vectors, cand, delta)
        keep = (cand >= 0) & has_new & (new_d > cur_d - preference)
        chosen = np.where(has_new, np.where(keep, cand, new), -1)
        cand = np.where(started, chosen, cand)

    ws = tables.workspace[task]
    inside = (end[:, 0] >= ws[:, 0]) & (end[:, 0] < ws[:, 2])
    inside &= (end[:, 1] >= ws[:, 1]) & (end[:, 1] < ws[:, 3])
    reverted = started & ~inside
    deleted = started & inside & (end[:, 0] < tables.delete_right[task])
    pair = np.where(started & ~reverted & ~deleted, cand, -1)
    grabbed = np.where(started, pick, 0)
    start_correct = tables.pick_source[task, grabbed] & started
    intended = tables.pair_intended[task, pick, np.maximum(pair, 0)] & (pair >= 0)
    return DragOutcome(grabbed, pair, deleted, reverted, start_correct, start_correct & intended)


def dist_to(vectors: np.ndarray, cand: np.ndarray, delta: np.ndarray) -> np.ndarray:
    """Distance of each row's current candidate pair at ``delta`` (inf where there is none)."""
    b = np.arange(len(cand))
    v = vectors[b, np.maximum(cand, 0)]
    d = np.hypot(v[:, 0] - delta[:, 0], v[:, 1] - delta[:, 1])
    return np.where(cand >= 0, d, np.inf)
