"""The suites of the one runner: every benchmark is a :class:`Suite` of :class:`Task` values.

============  ==============================  ============================================
suite         tasks                           modes (agents) and report
============  ==============================  ============================================
tasks         the shipped task suite          primitive, composite; ScratchWorld Table 1
scratchworld  a ScratchWorld checkout's tasks primitive, composite; Table 1
single-drag   stored single-drag tasks        single_drag; Pass@k, start/end, spatial error
perception    perception question slots       perception; accuracy by question type
nl2scratch    references JSONL / task goldens nl2scratch; EM, F1, PS, SAC_nl, SAC_ref
============  ==============================  ============================================

``make_suite("perception", screens=5)`` builds one; it travels to workers inside each job.
"""

from __future__ import annotations

from typing import Any

from scratch_gym.suites.base import Suite, Task
from scratch_gym.suites.nl2scratch import ProgramSuite
from scratch_gym.suites.perception import PerceptionSuite
from scratch_gym.suites.single_drag import SingleDragSuite
from scratch_gym.suites.tasks import TaskSuite

SUITES = ("tasks", "scratchworld", "single-drag", "perception", "nl2scratch")


def make_suite(name: str = "tasks", **options: Any) -> Suite:
    """A suite by name: ``tasks``; ``scratchworld`` (scratchworld=PATH); ``single-drag``
    (setting); ``perception`` (seed, screens); ``nl2scratch`` (references). Options that do not
    apply to the suite are an error that names them."""
    given = {k: v for k, v in options.items() if v is not None}
    allowed = {
        "tasks": (),
        "scratchworld": ("scratchworld",),
        "single-drag": ("setting",),
        "perception": ("seed", "screens"),
        "nl2scratch": ("references",),
    }
    if name not in allowed:
        raise ValueError(f"unknown suite {name!r}; allowed: {', '.join(SUITES)}")
    wrong = sorted(set(given) - set(allowed[name]))
    if wrong:
        takes = ", ".join(allowed[name]) or "no options"
        raise ValueError(
            f"option {', '.join(wrong)} does not apply to the {name} suite (it takes {takes})"
        )
    if name == "scratchworld":
        if not given.get("scratchworld"):
            raise ValueError("the scratchworld suite needs scratchworld=PATH (a checkout)")
        return TaskSuite(scratchworld=given["scratchworld"])
    if name == "single-drag":
        return SingleDragSuite(**given)
    if name == "perception":
        return PerceptionSuite(**given)
    if name == "nl2scratch":
        return ProgramSuite(**given)
    return TaskSuite()


def suite_of_mode(mode: str) -> str:
    """The suite an agent mode belongs to (``primitive``/``composite``: the task suite)."""
    return {
        "single_drag": "single-drag",
        "perception": "perception",
        "nl2scratch": "nl2scratch",
    }.get(mode, "tasks")


__all__ = ["SUITES", "Suite", "Task", "make_suite", "suite_of_mode"]
