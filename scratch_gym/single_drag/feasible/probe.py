"""Feasible regions by BFS: every start point that picks up the intended block, and every end
point that (from a fixed feasible start, the anchor) forms the intended connection.

Two probes answer the BFS's "is this point feasible?" (``PROBES``):

* ``editor`` (the paper's method): each probe is a real drag with the environment's own ``drag``;
  the editor is restored between probes by undoing the drag (reloading the project only when the
  undo did not restore the VM's blocks). About 2.6 minutes per task.
* ``model``: each probe is the calibrated drag model (:func:`drag_model.simulate`) on one capture
  of the task (:func:`capture.capture_drag`), which agrees with real drags on 99.25% of 2,000
  replayed drags (``benchmarks/fast_drag.py``). A few seconds per task; every point the BFS
  reaches is probed (no coarse-grid inference).

Tasks run in parallel, one editor page (and browser) per worker process.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from scratch_gym.editor.page import VIEWPORT, EditorPage
from scratch_gym.single_drag import editor_drag
from scratch_gym.single_drag.drag_model import DragOutcome, DragTables, simulate, stack_tables
from scratch_gym.single_drag.feasible.capture import capture_drag
from scratch_gym.single_drag.feasible.geometry import Geometry, end_seed, start_seeds
from scratch_gym.single_drag.feasible.search import Point, SearchResult, search_region
from scratch_gym.single_drag.tasks.regions import Region, Regions
from scratch_gym.single_drag.tasks.task import DragTask

WORKSPACE_TOP = 93  # below the tabs: the code area spans y 93..719
START_PROBE_DX = 40
PROBES = ("editor", "model")


def check_probe(probe: str) -> None:
    """A clear error for a probe that is not one of ``PROBES``."""
    if probe not in PROBES:
        raise ValueError(f"regions must be one of {PROBES} (how the BFS probes), got {probe!r}")


@dataclass
class Prober:
    """Runs probe drags for one task on one page and restores the editor after each."""

    page: EditorPage
    task: DragTask
    project: dict[str, Any] = field(init=False)
    view: dict[str, Any] = field(init=False)
    probes: int = 0
    reloads: int = 0

    def __post_init__(self) -> None:
        self.project = self.task.build_project()
        self.view = editor_drag.prepare(self.page, self.task, self.project)

    def drag(self, start: tuple[float, float], end: tuple[float, float]) -> editor_drag.Outcome:
        editor_drag.perform(self.page, start, end, probe=True)
        result = editor_drag.outcome(self.page, self.task)
        self.probes += 1
        if not editor_drag.restore(self.page, self.task, self.project, self.view):
            self.reloads += 1
        return result

    def starts(self, p: Point) -> bool:
        """Does a drag from ``p`` pick up the intended block? (A short drag to the right: past
        the palette's own drag radius, and palette blocks dropped on the palette vanish.)"""
        return self.drag(p, (p[0] + START_PROBE_DX, p[1])).start_correct

    def ends(self, anchor: tuple[float, float]) -> Callable[[Point], bool]:
        return lambda p: self.drag(anchor, p).success


@dataclass
class ModelProber:
    """Runs probe drags on the calibrated drag model of one capture of the task."""

    tables: DragTables
    probes: int = 0
    reloads: int = 0  # (nothing to reload: the interface of Prober)

    @classmethod
    def of(cls, page: EditorPage, task: DragTask) -> ModelProber:
        """Set up ``task``'s view on ``page`` and capture its drag tables."""
        editor_drag.prepare(page, task, task.build_project())
        return cls(stack_tables([capture_drag(page, task)]))

    def _drag(self, start: tuple[float, float], end: tuple[float, float]) -> DragOutcome:
        self.probes += 1
        return simulate(self.tables, np.zeros(1, np.int64), np.array([start]), np.array([end]))

    def starts(self, p: Point) -> bool:
        return bool(self._drag(p, (p[0] + START_PROBE_DX, p[1])).start_correct[0])

    def ends(self, anchor: tuple[float, float]) -> Callable[[Point], bool]:
        return lambda p: bool(self._drag(anchor, p).success[0])


def on_screen(p: Point) -> bool:
    return 0 <= p[0] < VIEWPORT[0] and WORKSPACE_TOP <= p[1] < VIEWPORT[1]


def compute_regions(
    page: EditorPage, task: DragTask, step: int = 5, levels: int = 1, probe: str = "editor"
) -> Regions:
    """BFS regions for ``task`` on ``page`` (the task's view is set up here), probed by real
    drags (``editor``) or by the calibrated drag model (``model``, which probes every point)."""
    check_probe(probe)
    t0 = time.perf_counter()
    prober = Prober(page, task) if probe == "editor" else ModelProber.of(page, task)
    levels = levels if probe == "editor" else 0
    geo = Geometry.read(page)
    start = _first_region(prober.starts, start_seeds(geo, task), step, levels)
    if not start.points:
        raise RuntimeError(f"task {task.id}: no start seed picks up the source block")
    start_region = Region.of(start.points, step)
    anchor = start_region.interior_point()
    seed = end_seed(geo, task, anchor)
    end = _first_region(prober.ends(anchor), _spiral(seed, step), step, levels)
    if not end.points:
        raise RuntimeError(f"task {task.id}: no drop point near {seed} forms the goal")
    stats = {
        "seconds": round(time.perf_counter() - t0, 1),
        "probes": prober.probes,
        "start_probes": start.probes,
        "end_probes": end.probes,
        "inferred": start.inferred + end.inferred,
        "reloads": prober.reloads,
        "levels": levels,
    }
    method = "bfs" if probe == "editor" else "bfs-model"
    return Regions(start_region, Region.of(end.points, step), anchor, method, stats)


def _first_region(
    test: Callable[[Point], bool], seeds: Iterable[tuple[float, float]], step: int, levels: int
) -> SearchResult:
    """Search from the first seed that is feasible (seeds are probed in order)."""
    total = 0
    result = SearchResult([], 0, 0)
    for seed in seeds:
        if not on_screen((int(seed[0]), int(seed[1]))):
            continue
        result = search_region(test, seed, step, levels, inside=on_screen)
        total += result.probes
        if result.points:
            break
    result.probes = total
    return result


def _spiral(seed: tuple[float, float], step: int, rings: int = 3) -> list[tuple[float, float]]:
    """The seed, then points around it at growing distance (the search snaps to the grid)."""
    pts = [seed]
    for r in range(1, rings + 1):
        d = 2 * r * step
        pts += [
            (seed[0] + dx * d, seed[1] + dy * d) for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0))
        ]
    return pts


# -- many tasks, several pages ---------------------------------------------------------------------
_WORKER_PAGE: EditorPage | None = None


def _worker_init() -> None:
    global _WORKER_PAGE
    _WORKER_PAGE = EditorPage().open()
    # Worker processes end with os._exit (no atexit): close the page and browser from a finalizer.
    multiprocessing.util.Finalize(None, _WORKER_PAGE.close, exitpriority=10)


def _worker_run(
    task: DragTask, step: int, levels: int, probe: str
) -> tuple[str, Regions | None, str]:
    assert _WORKER_PAGE is not None
    try:
        return task.id, compute_regions(_WORKER_PAGE, task, step, levels, probe), ""
    except Exception as exc:  # reported per task; the other tasks go on
        if not _WORKER_PAGE.is_alive():
            _WORKER_PAGE.recover()
        return task.id, None, f"{type(exc).__name__}: {exc}"


def compute_many(
    tasks: list[DragTask],
    step: int = 5,
    levels: int = 1,
    workers: int = 2,
    on_done: Callable[[DragTask, Regions | None, str], None] | None = None,
    probe: str = "editor",
) -> dict[str, Regions | None]:
    """Regions for each task, ``workers`` editor pages (processes) in parallel."""
    by_id = {t.id: t for t in tasks}
    out: dict[str, Regions | None] = {}
    if workers <= 1:
        page = EditorPage().open()
        try:
            for task in tasks:
                try:
                    regions, error = compute_regions(page, task, step, levels, probe), ""
                except Exception as exc:
                    regions, error = None, f"{type(exc).__name__}: {exc}"
                out[task.id] = regions
                if on_done:
                    on_done(task, regions, error)
        finally:
            page.close()
        return out
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=ctx, initializer=_worker_init) as executor:
        futures = [executor.submit(_worker_run, t, step, levels, probe) for t in tasks]
        for fut in as_completed(futures):
            task_id, regions, error = fut.result()
            out[task_id] = regions
            if on_done:
                on_done(by_id[task_id], regions, error)
    return out


def recompute(
    tasks: list[DragTask],
    step: int = 5,
    levels: int = 2,
    workers: int = 2,
    folder: Any = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Recompute and store the regions of ``tasks``; returns per-task seconds, probes, errors."""
    from scratch_gym.progress import progress_bar
    from scratch_gym.single_drag.tasks.task import save_regions

    report: dict[str, Any] = {"tasks": {}, "errors": {}}
    bar = progress_bar(total=len(tasks), desc="regions", unit="task", disable=not progress)

    def done(task: DragTask, regions: Regions | None, error: str) -> None:
        if regions is None:
            report["errors"][task.id] = error
        else:
            task.regions = regions
            save_regions(task, folder)
            report["tasks"][task.id] = {
                **regions.stats,
                "start": len(regions.start),
                "end": len(regions.end),
            }
        bar.update(1)

    t0 = time.perf_counter()
    compute_many(tasks, step, levels, workers, done)
    bar.close()
    report["seconds"] = time.perf_counter() - t0
    return report
