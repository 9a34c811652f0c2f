"""Honesty of the fast drag path: replay drags in the real editor and compare the outcomes.

Drags are drawn per pooled task: half inside the feasible regions (a start point of the start
region, an end point of the end region shifted by the grab offset), half near misses within
60 px of them (the end, the start or both moved just outside their region). Each drag runs in
the real editor (``editor_drag``: the environment's own drag, undone between drags) and through
``drag_model.simulate``; the comparison covers success, the grabbed block and the connection
that formed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from scratch_gym.single_drag import editor_drag
from scratch_gym.single_drag.drag_model import simulate
from scratch_gym.single_drag.fast.pool import Pool
from scratch_gym.single_drag.tasks.regions import Region

NEAR_PX = 60.0


@dataclass
class Drag:
    task: int
    start: tuple[float, float]
    end: tuple[float, float]
    kind: str  # "inside", "near_end", "near_start", "near_both"


@dataclass
class Comparison:
    """Counts of the replay and every disagreement."""

    drags: int = 0
    confusion: Counter = field(default_factory=Counter)  # (fast success, real success)
    grabbed_agree: int = 0
    formed_agree: int = 0
    disagreements: list[dict[str, Any]] = field(default_factory=list)
    real_seconds: float = 0.0

    def figures(self) -> dict[str, Any]:
        n = max(self.drags, 1)
        agree = self.confusion[(True, True)] + self.confusion[(False, False)]
        kinds = Counter(d["kind"] for d in self.disagreements)
        return {
            "drags": self.drags,
            "agreement_success": round(agree / n, 4),
            "agreement_grabbed": round(self.grabbed_agree / n, 4),
            "agreement_formed": round(self.formed_agree / n, 4),
            "confusion": {
                "fast_success_real_success": self.confusion[(True, True)],
                "fast_success_real_failure": self.confusion[(True, False)],
                "fast_failure_real_success": self.confusion[(False, True)],
                "fast_failure_real_failure": self.confusion[(False, False)],
            },
            "disagreement_kinds": dict(kinds),
        }


def draw_drags(pool: Pool, per_task: int, seed: int) -> list[Drag]:
    """``per_task`` drags for every task of the pool (half inside, half near misses)."""
    rng = np.random.default_rng(seed)
    out: list[Drag] = []
    for t, snap in enumerate(pool.snapshots):
        regions = snap.task.regions
        if regions is None or len(regions.start) == 0 or len(regions.end) == 0:
            continue
        anchor = np.array(regions.anchor)
        for i in range(per_task):
            start = regions.start.points[rng.integers(len(regions.start))].astype(float)
            end = regions.end.points[rng.integers(len(regions.end))] + (start - anchor)
            kind = "inside"
            if i % 2:
                kind = ("near_end", "near_end", "near_start", "near_both")[rng.integers(4)]
                if kind in ("near_start", "near_both"):
                    moved = _near(regions.start, start, rng)
                    end = end + (moved - start)  # the same drag, grabbed just off the block
                    start = moved
                if kind in ("near_end", "near_both"):
                    end = _near(_shifted(regions.end, start - anchor), end, rng)
            out.append(
                Drag(t, (float(start[0]), float(start[1])), (float(end[0]), float(end[1])), kind)
            )
    return out


def _shifted(region: Region, offset: np.ndarray) -> Region:
    return Region(region.points + np.rint(offset).astype(np.int64), region.step)


def _near(region: Region, point: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A point outside ``region`` but within NEAR_PX of it, found around ``point``."""
    for _ in range(200):
        cand = point + rng.uniform(-NEAR_PX, NEAR_PX, 2)
        d = region.distance((float(cand[0]), float(cand[1])))
        if 0.0 < d <= NEAR_PX:
            return cand
    return point + np.array([NEAR_PX, 0.0])


def replay(
    env: Any,
    pool: Pool,
    drags: list[Drag],
    progress: Callable[[int], None] | None = None,
) -> Comparison:
    """Run ``drags`` in the real editor of ``env`` (a SingleDragEnv) and compare with the model."""
    import time

    result = Comparison()
    tasks = np.array([d.task for d in drags], np.int64)
    starts = np.array([d.start for d in drags], np.float32).reshape(-1, 2)
    ends = np.array([d.end for d in drags], np.float32).reshape(-1, 2)
    fast = simulate(pool.tables, tasks, starts, ends)
    current = -1
    info: dict[str, Any] = {}
    project: dict[str, Any] = {}
    tops: tuple[str, ...] = ()
    for i, drag in enumerate(drags):
        snap = pool.snapshots[drag.task]
        t0 = time.perf_counter()
        if drag.task != current:
            _, info = env.reset(options={"task": snap.task})
            project = snap.task.build_project()  # what the reset loaded, for restoring
            # the stacks' tops the drop could attach below the dropped stack
            tops = tuple(
                p.formed.split(":", 1)[1] for p in snap.pairs if p.formed.startswith("above:")
            )
            current = drag.task
        page = env.unwrapped.page
        editor_drag.perform(page, drag.start, drag.end)
        blocks = page.bridge.vm_blocks()
        real = editor_drag.outcome(page, snap.task, blocks)
        formed_real = real_formed(blocks, real.dragged, tops)
        editor_drag.restore(page, snap.task, project, info["view"])
        result.real_seconds += time.perf_counter() - t0
        fast_pick = int(fast.pick[i])
        grabbed_fast = _pick_name(snap.picks, fast_pick)
        grabbed_real = _dragged_name(real.dragged)
        pair = int(fast.pair[i])
        formed_fast = _formed_of(snap, fast_pick, pair)
        f_ok, r_ok = bool(fast.success[i]), bool(real.success)
        result.drags += 1
        result.confusion[(f_ok, r_ok)] += 1
        result.grabbed_agree += grabbed_fast == grabbed_real
        result.formed_agree += formed_fast == formed_real
        if f_ok != r_ok or grabbed_fast != grabbed_real or formed_fast != formed_real:
            result.disagreements.append(
                {
                    "task": snap.task.id,
                    "drag": drag.kind,
                    "start": [round(v, 1) for v in drag.start],
                    "end": [round(v, 1) for v in drag.end],
                    "kind": _kind(f_ok, r_ok, grabbed_fast, grabbed_real, formed_fast, formed_real),
                    "fast": {"success": f_ok, "grabbed": grabbed_fast, "formed": formed_fast},
                    "real": {"success": r_ok, "grabbed": grabbed_real, "formed": formed_real},
                }
            )
        if progress:
            progress(i + 1)
    return result


def _kind(f_ok: bool, r_ok: bool, gf: str, gr: str, ff: str, fr: str) -> str:
    if gf != gr:
        return "grabbed"
    if f_ok != r_ok:
        return "success"
    return "formed"


def _pick_name(picks: list[dict[str, Any]], label: int) -> str:
    if label <= 0:
        return ""
    p = picks[label - 1]
    return f"palette:{p['opcode']}" if p["flyout"] else f"canvas:{p['id']}"


def _dragged_name(dragged: dict[str, Any] | None) -> str:
    if not dragged:
        return ""
    if dragged.get("from_flyout"):
        return f"palette:{dragged['opcode']}"
    return f"canvas:{dragged['id']}"


def _formed_of(snap: Any, pick: int, pair: int) -> str:
    if pick <= 0 or pair < 0:
        return ""
    pairs = [p for p in snap.pairs if p.pick == pick]
    return pairs[pair].formed if pair < len(pairs) else ""


def real_formed(
    blocks: dict[str, Any], dragged: dict[str, Any] | None, tops: tuple[str, ...] = ()
) -> str:
    """The connection the dropped block made in the VM, in ``drag_model`` terms ("" for none).
    ``tops``: the stacks' top blocks the drop could attach below the dropped stack."""
    if not dragged or dragged["id"] not in blocks:
        return ""
    d = dragged["id"]
    parent = blocks[d].get("parent")
    if parent and parent in blocks:
        p = blocks[parent]
        if p.get("next") == d:
            return f"below:{parent}"
        for name, slot in (p.get("inputs") or {}).items():
            if slot.get("block") == d:
                return f"input:{name}:{parent}"
        return ""
    below_d, seen, block = [], 0, blocks[d].get("next")
    while block and block in blocks and seen < 1000:
        below_d.append(block)
        block, seen = blocks[block].get("next"), seen + 1
    for top in tops:  # a stack that was on its own now hangs below the dropped one
        if top in below_d:
            return f"above:{top}"
    for name, slot in (blocks[d].get("inputs") or {}).items():
        child = slot.get("block")
        if child and child != slot.get("shadow") and name not in ("SUBSTACK", "SUBSTACK2"):
            return f"takes:{child}"
    return ""
