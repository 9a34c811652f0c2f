"""The suites of the one runner: every benchmark is a :class:`Suite` of :class:`Task` values.

============  ==============================  ============================================
suite         tasks                           modes (agents) and report
============  ==============================  ============================================
tasks         the shipped task suite          primitive, composite; ScratchWorld Table 1
scratchworld  a ScratchWorld checkout's tasks primitive, composite; Table 1
single-drag   stored single-drag tasks (or a  single_drag; Pass@k, start/end, spatial error
              ScratchWorld checkout's)
perception    perception question slots       perception; accuracy by question type
              (or a ScratchWorld checkout's   (ScratchWorld's per-type and per-tag tables)
              Visual Perception items)
nl2scratch    references JSONL / task goldens nl2scratch; EM, F1, PS, SAC_nl, SAC_ref
============  ==============================  ============================================

``make_suite("perception", screens=5)`` builds one; it travels to workers inside each job. Every
suite's ``select(categories, task_ids)`` reads the one task vocabulary
(:func:`~scratch_gym.suites.base.select_among`; docs/tasks-and-rewards.md, "Selecting tasks").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scratch_gym.suites.base import Suite, Task
from scratch_gym.suites.nl2scratch import ProgramSuite
from scratch_gym.suites.perception import PerceptionSuite
from scratch_gym.suites.single_drag import SingleDragSuite
from scratch_gym.suites.tasks import TaskSuite

# each suite's class and the options it takes
SUITE_CLASSES: dict[str, tuple[type[Suite], tuple[str, ...]]] = {
    "tasks": (TaskSuite, ("observation",)),
    "scratchworld": (TaskSuite, ("scratchworld", "time", "observation")),
    "single-drag": (SingleDragSuite, ("setting", "scratchworld", "regions", "tasks_dirs")),
    "perception": (PerceptionSuite, ("seed", "screens", "scratchworld")),
    "nl2scratch": (ProgramSuite, ("references", "protocol")),
}
SUITES = tuple(SUITE_CLASSES)


def make_suite(
    name: str = "tasks", *, labels: Mapping[str, str] | None = None, **options: Any
) -> Suite:
    """A suite by name: ``tasks`` (observation=screen|screen_elements|screen_elements_ocr, in
    primitive mode); ``scratchworld`` (scratchworld=PATH; time=virtual|real, how its scripts run;
    observation); ``single-drag``
    (setting; scratchworld=PATH for a checkout's single-drag tasks, regions=editor|model); ``perception`` (seed,
    screens; or scratchworld=PATH for ScratchWorld's Visual Perception items); ``nl2scratch`` (references; protocol=paper|retry, the generation protocol). Options that do not apply to the suite are an error that names them (as ``labels`` spells them, e.g. the
    command line's flags)."""
    if name not in SUITE_CLASSES:
        raise ValueError(f"unknown suite {name!r}; allowed: {', '.join(SUITES)}")
    cls, allowed = SUITE_CLASSES[name]
    given = {k: v for k, v in options.items() if v is not None}
    label = (labels or {}).get
    wrong = sorted(set(given) - set(allowed))
    if wrong:
        takes = ", ".join(label(k, k) for k in allowed) or "no options"
        raise ValueError(
            f"option {', '.join(label(k, k) for k in wrong)} does not apply to the {name} suite "
            f"(it takes {takes})"
        )
    if name == "scratchworld" and not given.get("scratchworld"):
        raise ValueError(
            f"the scratchworld suite needs {label('scratchworld', 'scratchworld')} PATH "
            "(a ScratchWorld checkout)"
        )
    return cls(**given)


def suite_of_mode(mode: str) -> str:
    """The suite an agent mode belongs to (``primitive``/``composite``: the task suite)."""
    return {
        "single_drag": "single-drag",
        "perception": "perception",
        "nl2scratch": "nl2scratch",
    }.get(mode, "tasks")


__all__ = ["SUITES", "Suite", "Task", "make_suite", "suite_of_mode"]
