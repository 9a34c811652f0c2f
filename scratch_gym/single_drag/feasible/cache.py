"""Feasible regions of single-drag tasks that come without them (a ScratchWorld checkout's, a
user's ``--tasks-dir`` folder): computed by BFS in this editor on first use and cached outside
the task folder (which may be read-only), per editor version, under the user cache
(``$SCRATCH_GYM_CACHE``, default ``~/.cache/scratch-gym``)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from scratch_gym.single_drag.drag_model import MODEL_VERSION
from scratch_gym.single_drag.tasks.task import DragTask

# Bumped whenever how a task's view is set up changes what the screen shows (v2: a view that a
# late scroll moved is set again, editor_drag.prepare): cached regions are kept per version.
VIEW_VERSION = 2


def regions_cache_dir() -> Path:
    """Where computed regions are kept: per editor version (the pinned editor's)."""
    from scratch_gym.editor.install import pinned_version
    from scratch_gym.paths import cache_dir

    return cache_dir() / "single_drag" / "regions" / pinned_version()


def regions_cache_path(task: DragTask, probe: str = "editor") -> Path:
    """The cache file of ``task``'s regions: its id and a digest of everything that sets up the
    drag (project, view, source, goal), so that a changed task file is computed anew; regions
    probed by the drag model (``probe="model"``) are kept apart from the real drags' ones, per
    version of the view set-up and of the model."""
    data = task.to_json()
    data.pop("regions", None)
    data.pop("meta", None)
    digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]
    version = (
        f"v{VIEW_VERSION}" if probe == "editor" else f"{probe}-v{VIEW_VERSION}.{MODEL_VERSION}"
    )
    suffix = f"-{version}"
    return regions_cache_dir() / f"{task.id}-{digest}{suffix}.json"


def attach_regions(
    tasks: list[DragTask],
    compute: bool = True,
    progress: bool = True,
    workers: int = 1,
    probe: str = "editor",
) -> dict[str, str]:
    """Give each task its regions: from the cache, else (``compute``) by BFS in this editor
    (``feasible.probe``), then cached. ``probe="editor"`` probes with real drags (the paper's
    method); ``probe="model"`` with the calibrated drag model, and takes the real drags' cached
    regions where there are any. Returns the errors of tasks left without."""
    from scratch_gym.single_drag.feasible.probe import check_probe
    from scratch_gym.single_drag.tasks.regions import Regions

    check_probe(probe)
    missing = []
    for task in tasks:
        for kind in dict.fromkeys(("editor", probe)):
            path = regions_cache_path(task, kind)
            if task.regions is None and path.is_file():
                try:
                    task.regions = Regions.from_json(json.loads(path.read_text()))
                except (ValueError, KeyError, TypeError):
                    task.regions = None  # a damaged cache file: computed anew
        if task.regions is None:
            missing.append(task)
    if not missing:
        return {}
    if not compute:
        return {t.id: "regions not computed yet" for t in missing}
    from scratch_gym.progress import progress_bar
    from scratch_gym.single_drag.feasible.probe import compute_many

    errors: dict[str, str] = {}
    desc = "regions (BFS, real drags)" if probe == "editor" else "regions (BFS, drag model)"
    bar = progress_bar(total=len(missing), desc=desc, unit="task", disable=not progress)

    def done(task: DragTask, regions: Any, error: str) -> None:
        bar.update(1)
        if regions is None:
            errors[task.id] = error or "no regions"
            return
        task.regions = regions
        path = regions_cache_path(task, probe)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(regions.to_json()))
        tmp.replace(path)

    try:
        compute_many(missing, workers=workers, on_done=done, probe=probe)
    finally:
        bar.close()
    return errors
