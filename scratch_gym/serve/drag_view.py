"""The view of a Single-Step Drag task, set up as scratch-gym's importer sets it up.

ScratchWorld's drag runner (``run_single_step_drag_benchmark.py``) loads a task's
``init_project``, switches to the small stage, runs the task's pre-actions, then sets the
task's ``workspace_state`` (``tx``, ``ty``, ``scale``) through ``custom_js`` with its own page
function. serve runs no page JavaScript of a client's for this: on a session whose last loaded
project is a drag task's ``init_project``, a ``custom_js`` call whose ``payload`` is a workspace
state (``tx``/``ty`` or ``scrollX``/``scrollY``) sets the task's whole view as
:mod:`scratch_gym.scratchworld.drag` imports it (:class:`~scratch_gym.single_drag.tasks.task.View`:
editing target, palette category and anchor, small stage, translation and zoom), the same call
scratch-gym's single-drag env makes (``single_drag.editor_drag.show_view``). So the screen is the
one whose feasible regions scratch-gym computes for that task. This holds with and without
``--allow-js``; any other ``custom_js`` is unchanged (403 without ``--allow-js``).
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from scratch_gym.editor.page import EditorPage
from scratch_gym.serve import envelope
from scratch_gym.single_drag.editor_drag import show_view

STATE_KEYS = ("tx", "ty", "scrollX", "scrollY")


def workspace_state(args: dict[str, Any]) -> dict[str, Any] | None:
    """The workspace state a ``custom_js`` call's ``payload`` carries, else None."""
    payload = args.get("payload")
    if isinstance(payload, dict) and any(k in payload for k in STATE_KEYS):
        return payload
    return None


class DragViews:
    """The checkout's drag tasks by ``init_project`` (read on first use; none without the
    benchmark's folder)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._by_project: dict[str, list[Any]] | None = None
        self._lock = threading.Lock()

    def tasks_of(self, project: str | None) -> list[Any]:
        if not project:
            return []
        with self._lock:
            if self._by_project is None:
                self._by_project = self._read()
        return self._by_project.get(project, [])

    def task_for(self, project: str | None, state: dict[str, Any]) -> Any:
        """The drag task of ``project`` (the one whose translation is ``state``'s when the
        project starts several), else None."""
        tasks = self.tasks_of(project)
        if len(tasks) > 1:
            tasks = [t for t in tasks if _same_translate(t, state)] or tasks[:1]
        return tasks[0] if tasks else None

    def _read(self) -> dict[str, list[Any]]:
        from scratch_gym.scratchworld.checkout import DRAG_TASKS_DIR
        from scratch_gym.scratchworld.drag import load_scratchworld_drag_tasks

        if not (self.root / DRAG_TASKS_DIR).is_dir():
            return {}
        out: dict[str, list[Any]] = {}
        for task in load_scratchworld_drag_tasks(self.root):
            out.setdefault(str(task.meta["scratchworld"]["init_project"]), []).append(task)
        return out


def _same_translate(task: Any, state: dict[str, Any]) -> bool:
    try:
        tx, ty = float(state["tx"]), float(state["ty"])
    except (KeyError, TypeError, ValueError):
        return False
    ours = task.view.translate or (0.0, 0.0)
    return abs(ours[0] - tx) < 0.5 and abs(ours[1] - ty) < 0.5


def set_view(page: EditorPage, sid: str, task: Any, args: dict[str, Any]) -> dict[str, Any]:
    """On the worker: set ``task``'s view; answered in the envelope with the state it reached."""
    started = time.perf_counter()
    view = show_view(page, task)
    scale = float(view.get("scale", task.view.scale))
    sx, sy = float(view.get("scroll_x", 0.0)), float(view.get("scroll_y", 0.0))
    tx, ty = (float(v) for v in view["origin"])  # the canvas' translation now
    data = {
        "success": True,
        "mode": "scratch-gym drag view",
        "task": task.id,
        "transform": f"translate({tx},{ty}) scale({scale})",
        "tx": tx,
        "ty": ty,
        "scale": scale,
        "scrollX": sx,
        "scrollY": sy,
    }
    executed = {"view": task.view.to_args()}
    return envelope.ok("custom_js", args, executed, sid, started, data)
