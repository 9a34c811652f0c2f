"""The scripted endpoint's drag mode: ScratchWorld's Single-Step Drag runner
(``run_single_step_drag_benchmark.py``) answered with scratch-gym's drag oracle.

Their runner asks once per task: its system prompt quotes the task's instruction after ``Your
task is:`` and says ``You need to perform a drag-and-drop action``; it parses a reply
``drag(start_point='<point>x1 y1</point>', end_point='<point>x2 y2</point>')`` in 1280x720
screen pixels (with ``--element-list`` too: points are one of the formats it accepts).

**The task** is the drag task whose instruction the prompt quotes (their 60 instructions are
distinct); when none matches and the endpoint has ``--serve``, it is the drag task whose
``init_project`` the one unclaimed open session holds, as the primitive mode claims sessions.

**The drag** is :class:`~scratch_gym.agents.single_drag.DragOracleAgent`'s: from the start
region's anchor to the end region's most interior point, in the task's feasible regions as
scratch-gym computes them for its imported task (:mod:`scratch_gym.scratchworld.drag`; cached per
task, else computed now by BFS, ``probe="model"`` by default: seconds a task). serve sets each
drag session's view as that import does (:mod:`scratch_gym.serve.drag_view`), so the regions'
pixels are the session's.

**Their pointer path.** The regions hold for scratch-gym's drag (a move past the drag radius,
then three long moves). Their runner's drag is 15 short moves on the straight line
(:func:`~scratch_gym.serve.handlers.their_drag`), and Blockly snaps on every move: when the last
moves pass within snap radius of a neighbouring connection (the one above an ``if``'s mouth, say),
the insertion marker it shows shifts the stack, and that connection stays the candidate at the
drop. So before it answers, the endpoint replays the drag with their path on a page of its own,
set up as the task's view, and takes the first end point, most interior first, whose drop holds
the task's goal (at most ``PATH_TRIES``; none: the most interior point). Checked ends are cached
per task.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

DRAG_MARK = "You need to perform a drag-and-drop action"
PATH_TRIES = 12  # end points replayed with their pointer path, most interior first
TASK_IS = "Your task is:"


class DragTaskUnknown(ValueError):
    """No drag task, or several, fit the conversation (HTTP 400)."""


class DragPlayer:
    """The checkout's drag tasks and their oracle drags."""

    def __init__(self, scratchworld: Path, probe: str = "model") -> None:
        self.scratchworld = Path(scratchworld)
        self.probe = probe
        self._tasks: dict[str, Any] | None = None
        self._ends: dict[str, tuple[float, float]] = {}  # task id -> end checked with their path
        self._lock = threading.Lock()

    def tasks(self) -> dict[str, Any]:
        """Their task id (``T1_001``) -> scratch-gym's imported task."""
        from scratch_gym.scratchworld.checkout import ID_PREFIX
        from scratch_gym.scratchworld.drag import load_scratchworld_drag_tasks

        with self._lock:
            if self._tasks is None:
                self._tasks = {
                    t.id.removeprefix(ID_PREFIX): t
                    for t in load_scratchworld_drag_tasks(self.scratchworld)
                }
            return self._tasks

    def task_of(self, system: str, project_of_session: Any = None) -> tuple[str, Any]:
        """The conversation's drag task: by the quoted instruction, else (``project_of_session``,
        a callable giving the projects the claimable sessions hold) by the session's project."""
        quoted = system.split(TASK_IS, 1)[1].split(DRAG_MARK, 1)[0].strip() if TASK_IS in system else ""  # fmt: skip
        tasks = self.tasks()
        found = [k for k, t in tasks.items() if quoted and t.instruction.strip() == quoted]
        if not found and project_of_session is not None:
            projects = set(project_of_session())
            found = [k for k, t in tasks.items() if t.meta["scratchworld"]["init_project"] in projects]  # fmt: skip
        if len(found) != 1:
            raise DragTaskUnknown(
                f"{len(found)} drag tasks fit the prompt; the scripted endpoint needs one (the "
                "instruction after 'Your task is:', or one open session on a drag task's project)"
            )
        return found[0], tasks[found[0]]

    def drag(self, task: Any) -> tuple[tuple[int, int], tuple[int, int]]:
        """The drag oracle's start and end (whole pixels) for ``task``."""
        from scratch_gym.single_drag.feasible.cache import attach_regions

        with self._lock:  # one BFS at a time (it opens its own editor page)
            if task.regions is None:
                failed = attach_regions([task], progress=False, probe=self.probe)
                if failed:
                    raise RuntimeError(f"no feasible regions for {task.id}: {failed[task.id]}")
            start = task.regions.anchor
            if task.id not in self._ends:
                self._ends[task.id] = their_path_end(task, start)
            end = self._ends[task.id]
        return (round(start[0]), round(start[1])), (round(end[0]), round(end[1]))


def their_path_end(task: Any, start: tuple[float, float]) -> tuple[float, float]:
    """The most interior end point of ``task``'s end region whose drop from ``start`` along
    their runner's pointer path holds the goal, replayed on a page of this process (set up as
    the task's view; undone after each drop). None holds within ``PATH_TRIES``: the most
    interior point."""
    from scratch_gym.editor.page import EditorPage
    from scratch_gym.serve.handlers import their_drag
    from scratch_gym.single_drag import editor_drag

    ends = [(float(x), float(y)) for x, y in task.regions.end.by_interiority()[:PATH_TRIES]]
    page = EditorPage().open()
    try:
        project = task.build_project()
        view = editor_drag.prepare(page, task, project)
        for end in ends:
            page.start_vm()
            their_drag(page, (round(start[0]), round(start[1])), (round(end[0]), round(end[1])))
            page.settle(editor_drag.SETTLE_MS, stop_vm=True)
            held = editor_drag.outcome(page, task).success
            editor_drag.restore(page, task, project, view)
            if held:
                return end
    finally:
        page.close()
    return ends[0]


def drag_reply(name: str, start: tuple[int, int], end: tuple[int, int], note: str = "") -> str:
    """Their reply format: one ``drag(start_point=..., end_point=...)`` line."""
    head = f"Scripted drag oracle for task {name}.{' ' + note if note else ''}"
    return (
        f"{head}\ndrag(start_point='<point>{start[0]} {start[1]}</point>', "
        f"end_point='<point>{end[0]} {end[1]}</point>')"
    )
