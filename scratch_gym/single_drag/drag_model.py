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
   While a statement connection is the candidate, Blockly shows an insertion marker there (a
   copy of the dragged block without its inputs' blocks or the blocks below it), and every
   block after it in that stack moves down by the marker's height for the next move's search
   (measured: a candidate below a stack's first block moves the later blocks' connections down
   and changes which of them is closest). A value input only highlights: nothing moves.
4. **Drop.** Outside the workspace the drag is reverted; over the palette or the category menu
   the block is deleted; otherwise the highlighted candidate connects.

Every distance is in screen pixels (the workspace units times the zoom).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

# Bumped whenever a change to the model can change an outcome: regions probed by the model are
# cached under it (``feasible.cache``), so a fix recomputes them.
MODEL_VERSION = 2
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
    y: float = 0.0  # the workspace connection's screen y at the drag's start (px)
    stack: int = 0  # which top-level stack holds the workspace connection (per task)
    marker: bool = False  # a statement connection: as the candidate it shows a marker


def compile_pairs(geometry: dict[str, Any], picks: list[dict[str, Any]]) -> list[Pair]:
    """Every compatible pair for every pickable block, from ``single_drag.geometry`` data."""
    canvas = {b["id"]: b for b in geometry["canvas"]}
    flyout = {b["id"]: b for b in geometry["flyout"]}
    roots = _roots(canvas)
    stacks = {root: i for i, root in enumerate(sorted(set(roots.values())))}
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
                            Pair(
                                label,
                                cand["x"] - lx,
                                cand["y"] - ly,
                                _formed(other, cand),
                                y=float(cand["y"]),
                                stack=stacks[roots[other["id"]]],
                                marker=cand["type"] == "next",
                            )
                        )
    return out


def _roots(canvas: dict[str, dict[str, Any]]) -> dict[str, str]:
    """Each canvas block's top-level block (the stack it is part of)."""
    parent = {}
    for b in canvas.values():
        for c in b["connections"]:
            if c["type"] in ("next", "input") and c["target"]:
                parent[c["target"]] = b["id"]
    out = {}
    for bid in canvas:
        root, seen = bid, 0
        while root in parent and seen < len(canvas):
            root, seen = parent[root], seen + 1
        out[bid] = root
    return out


EMPTY_MOUTH_UNITS = 24.0  # an empty statement input's height (workspace units, measured)


def marker_heights(geometry: dict[str, Any], picks: list[dict[str, Any]]) -> list[float]:
    """Per pick, how far (px) the blocks after a statement candidate move down while its
    insertion marker shows: the marker's height from its previous to its next connection (to
    its mouth for a block without a next, such as forever, which wraps them). The marker
    copies the dragged block without its inputs' blocks: a palette block as it is (scaled from
    the palette's zoom to the workspace's), a canvas block with each filled mouth back at its
    empty height."""
    canvas = {b["id"]: b for b in geometry["canvas"]}
    flyout = {b["id"]: b for b in geometry["flyout"]}
    scale = float(geometry["scale"])
    out = []
    for pick in picks:
        if pick["flyout"]:
            block = flyout.get(pick["id"])
            ratio = scale / float(geometry.get("flyout_scale") or scale)
            out.append(_own_height(block, {}) * ratio if block else 0.0)
        else:
            block = canvas.get(pick["id"])
            out.append(_own_height(block, canvas, EMPTY_MOUTH_UNITS * scale) if block else 0.0)
    return out


def _own_height(
    block: dict[str, Any], canvas: dict[str, dict[str, Any]], empty: float = 0.0
) -> float:
    """Previous to next connection (px), each filled mouth counted at ``empty``; a block
    without a next: previous to its first mouth; 0 without a previous."""
    conns = block["connections"]
    prev = next((c for c in conns if c["type"] == "previous"), None)
    if prev is None:
        return 0.0
    own_next = next((c for c in conns if _own_next(c)), None)
    mouths = [c for c in conns if _mouth(c)]
    if own_next is None:
        return mouths[0]["y"] - prev["y"] if mouths else 0.0
    height = own_next["y"] - prev["y"]
    for mouth in mouths:
        if mouth["target"] and mouth["target"] in canvas:
            last = stack_last(canvas, mouth["target"])
            end = next((c for c in last["connections"] if _own_next(c)), None)
            if end is not None:
                height -= max(end["y"] - mouth["y"] - empty, 0.0)
    return height


def _own_next(c: dict[str, Any]) -> bool:
    return c["type"] == "next" and c["input"] is None


def _mouth(c: dict[str, Any]) -> bool:
    """A statement input's connection (a C-block's mouth), as against the block's own next."""
    return c["type"] == "next" and c["input"] is not None


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
            # scratch-blocks lets a block without a next (forever) in mid-stack when the
            # blocks it displaces fit its first empty statement input: it wraps them.
            return _empty_mouth(block)
    return True


def _empty_mouth(block: dict[str, Any]) -> bool:
    """Whether ``block`` has a statement input (SUBSTACK) with nothing in it."""
    return any(_mouth(c) and c["target"] is None for c in block["connections"])


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
    pair_y: np.ndarray  # (T, D + 1, P) float32: the workspace connection's screen y
    pair_stack: np.ndarray  # (T, D + 1, P) int32: its top-level stack
    pair_marker: np.ndarray  # (T, D + 1, P) bool: a statement connection (shows a marker)
    pick_marker: np.ndarray  # (T, D + 1) float32: how far a marker moves later blocks (px)
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
    pair_y = np.zeros((t, d, p), np.float32)
    pair_stack = np.zeros((t, d, p), np.int32)
    pair_marker = np.zeros((t, d, p), bool)
    pick_marker = np.zeros((t, d), np.float32)
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
            pick_marker[i, j] = pick.get("marker_px", 0.0)
        fill = np.zeros(d, np.int64)
        for pair, ok in zip(s.pairs, s.intended, strict=True):
            k = fill[pair.pick]
            vec[i, pair.pick, k] = (pair.dx, pair.dy)
            valid[i, pair.pick, k] = True
            intended[i, pair.pick, k] = ok
            pair_y[i, pair.pick, k] = pair.y
            pair_stack[i, pair.pick, k] = pair.stack
            pair_marker[i, pair.pick, k] = pair.marker
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
        pair_y=pair_y,
        pair_stack=pair_stack,
        pair_marker=pair_marker,
        pick_marker=pick_marker,
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
    vx = vectors[..., 0]
    valid = tables.pair_valid[task, pick]
    snap, connecting, preference = (tables.radii[task, i] for i in range(3))
    started = np.zeros(len(task), bool)
    blocked = np.zeros(len(task), bool)  # a palette drag that became a palette scroll
    cand = np.full(len(task), -1, np.int64)
    for delta in deltas:
        vy = _marker_moved_y(tables, task, pick, cand, vectors[..., 1])
        moved = np.hypot(delta[:, 0], delta[:, 1]) > radius
        begins = moved & ~started & ~blocked & (pick > 0)
        blocked |= begins & flyout & ~towards
        started |= begins & ~(flyout & ~towards)
        dist = np.hypot(vx - delta[:, None, 0], vy - delta[:, None, 1])
        reach = np.where(cand >= 0, connecting, snap)
        dist = np.where(valid & (dist <= reach[:, None]), dist, np.inf)
        new = np.argmin(dist, axis=1)
        new_d = dist[b, new]
        has_new = np.isfinite(new_d)
        cur = np.maximum(cand, 0)
        cur_d = np.where(
            cand >= 0, np.hypot(vx[b, cur] - delta[:, 0], vy[b, cur] - delta[:, 1]), np.inf
        )
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


def _marker_moved_y(
    tables: DragTables, task: np.ndarray, pick: np.ndarray, cand: np.ndarray, vy: np.ndarray
) -> np.ndarray:
    """The pairs' y components while the current candidate's insertion marker shows: a
    statement candidate moves every connection below it in its stack down by the marker's
    height. Only rows with such a candidate are touched (most drags have none)."""
    rows = np.nonzero(cand >= 0)[0]
    if rows.size == 0:
        return vy
    t, p, c = task[rows], pick[rows], cand[rows]
    rows, t, p, c = (a[tables.pair_marker[t, p, c]] for a in (rows, t, p, c))
    if rows.size == 0:
        return vy
    r = np.arange(rows.size)
    ys, stacks = tables.pair_y[t, p], tables.pair_stack[t, p]
    below = (stacks == stacks[r, c][:, None]) & (ys > ys[r, c][:, None] + 0.5)
    out = vy.copy()
    out[rows] += np.where(below, tables.pick_marker[t, p][:, None], 0.0)
    return out
