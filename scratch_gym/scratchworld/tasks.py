"""Import tasks from a user's checkout of the original ScratchWorld benchmark, scored by its own
evaluation scripts, and paired with the checkout's golden projects so that the oracles can play
them.

The task files (:mod:`scratch_gym.scratchworld.checkout` has the whole layout)::

    <root>/tasks/{create,debug,extend,compute}/<name>.json   name, description, type, instruction,
                                                             initial_project, evaluation{function,
                                                             timeout, description, test_cases?}
    <root>/scratch-gui/static/<initial_project>.sb3
    <root>/scratch-bench-api/api/evaluation_scripts/<function>.js   module.exports =
                                                             async (vm, config, cleanup) => result
    <root>/scratch-bench-api/api/evaluation_scripts/evaluation_utils.js   -> window.EvaluationUtils

A task read by :class:`ScratchWorldCheckout` has no golden project (``golden_path`` finds the
checkout's reference solution for checks); :func:`scratchworld_tasks` pairs each task with its
golden (see :mod:`scratch_gym.scratchworld.checkout`; a task without one keeps ``golden = None``
and the oracles report it as unsupported). A task that scratch-gym exported
(``tasks export-scratchworld``) is scored by its own tests
(:class:`~scratch_gym.scratchworld.exported.ExportedSuite`). Any other task's ``external`` suite
is a
:class:`~scratch_gym.scratchworld.evaluation.ScratchWorldSuite`, which runs the script in the
page against the evaluation copy of the project (never the agent's VM), on the small stage that
ScratchWorld's runner uses, in virtual time by default or in real time as the original service
runs it (``time="real"``).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from scratch_gym.scratchworld.checkout import (
    ID_PREFIX,
    NOT_A_CHECKOUT,
    SCRIPTS_DIR,
    STATIC_DIR,
    TASKS_DIR,
    UTILS_FILE,
    golden_stems,
    locate,
    match_golden,
)
from scratch_gym.scratchworld.evaluation import TIME_MODES, ScratchWorldSuite
from scratch_gym.scratchworld.exported import ExportedSuite
from scratch_gym.tasks.schema import KNOWN_CATEGORIES, ProjectRef, Tags, Task, TaskError


class ScratchWorldCheckout:
    """A ScratchWorld checkout on disk; ``tasks()`` imports its task files."""

    def __init__(self, root: str | Path, time: str = "virtual") -> None:
        if time not in TIME_MODES:
            raise ValueError(f"time must be one of {', '.join(TIME_MODES)}, not {time!r}")
        self.time = time
        self.root = locate(
            root,
            dict.fromkeys((TASKS_DIR, STATIC_DIR, SCRIPTS_DIR), NOT_A_CHECKOUT),
            FileNotFoundError,
        )

    def task_files(self, category: str | None = None) -> list[Path]:
        cats = [category] if category else list(KNOWN_CATEGORIES)
        return sorted(p for c in cats for p in (self.root / TASKS_DIR / c).glob("*.json"))

    def tasks(self, category: str | None = None) -> list[Task]:
        return [self.read(p) for p in self.task_files(category)]

    def load(self, name: str) -> Task:
        """The task named ``name`` (its file name without ``.json``, or ``scratchworld-<name>``)."""
        name = name.removeprefix(ID_PREFIX)
        for path in self.task_files():
            if path.stem == name:
                return self.read(path)
        raise KeyError(f"no ScratchWorld task named {name!r} in {self.root / TASKS_DIR}")

    def golden_path(self, name: str) -> Path | None:
        """The checkout's reference solution for task ``name``: ``<name>_golden.sb3``, or for a
        debug task made from a starter project (``pong_starter_touching_red_error``) the
        starter's (``pong_starter_golden.sb3``); None if there is none."""
        return match_golden(name.removeprefix(ID_PREFIX), golden_stems(self.root))

    def read(self, path: Path) -> Task:
        """Import one task file (errors name the file and the field)."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise TaskError(path, "<file>", f"not valid JSON: {exc}") from None
        for key in ("name", "type", "instruction", "initial_project", "evaluation"):
            if key not in data:
                raise TaskError(path, key, "is required")
        evaluation = data["evaluation"]
        if not isinstance(evaluation, dict) or "function" not in evaluation:
            raise TaskError(path, "evaluation.function", "is required")
        project = self.root / STATIC_DIR / data["initial_project"]
        if not project.is_file():
            raise TaskError(path, "initial_project", f"{project} does not exist")
        function = str(evaluation["function"])
        script = self.root / SCRIPTS_DIR / f"{function}.js"
        if not script.is_file():
            raise TaskError(path, "evaluation.function", f"{script} does not exist")
        utils = self.root / SCRIPTS_DIR / UTILS_FILE
        text = script.read_text(encoding="utf-8")
        suite = ExportedSuite.from_script(text, function) or ScratchWorldSuite(
            function=function,
            script=text,
            utils=utils.read_text(encoding="utf-8") if utils.is_file() else None,
            config=dict(evaluation),
            time=self.time,
        )
        return Task(
            id=f"{ID_PREFIX}{data['name']}",
            category=str(data["type"]),
            instruction=str(data["instruction"]),
            start=ProjectRef(project),
            golden=None,
            tags=Tags(other=("scratchworld",)),
            reset_sprites=False,
            source=path,
            external=suite,
        )


def with_golden(task: Task, stems: dict[str, Path]) -> Task:
    """``task`` with its golden project set (unchanged when the checkout has none for it)."""
    path = match_golden(task.id.removeprefix(ID_PREFIX), stems)
    return dataclasses.replace(task, golden=ProjectRef(path)) if path else task


def scratchworld_tasks(
    root: str | Path,
    category: str | None = None,
    names: list[str] | None = None,
    time: str = "virtual",
) -> list[Task]:
    """The checkout's tasks (all, one category's, or those named), paired with their goldens;
    ``time``: their scripts run in virtual (default) or real time."""
    checkout = ScratchWorldCheckout(root, time=time)
    stems = golden_stems(checkout.root)
    if names:
        return [with_golden(checkout.load(n), stems) for n in names]
    return [with_golden(t, stems) for t in checkout.tasks(category)]
