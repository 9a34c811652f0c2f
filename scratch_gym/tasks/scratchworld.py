"""Import tasks from a user's checkout of the original ScratchWorld benchmark, scored by its own
evaluation scripts.

The checkout is read where the user keeps it (nothing is copied into this repository)::

    <root>/tasks/{create,debug,extend,compute}/<name>.json   name, description, type, instruction,
                                                             initial_project, evaluation{function,
                                                             timeout, description, test_cases?}
    <root>/scratch-gui/static/<initial_project>.sb3
    <root>/scratch-bench-api/api/evaluation_scripts/<function>.js   module.exports =
                                                             async (vm, config, cleanup) => result
    <root>/scratch-bench-api/api/evaluation_scripts/evaluation_utils.js   -> window.EvaluationUtils

An imported :class:`~scratch_gym.tasks.schema.Task` has no golden project (``golden_path`` finds
the checkout's reference solution for checks); its ``external`` suite runs the script in the page
against the evaluation copy of the project (never the agent's VM), on the small stage that
ScratchWorld's runner uses, in virtual time by default (the script's timers, its clock and the
VM's frames on one virtual clock: waits cost no wall time) or in real time as the original service
runs it (``time="real"``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from scratch_gym.editor.page import BridgeError, CallTimeout, EditorPage
from scratch_gym.tasks.evaluator import TestResult
from scratch_gym.tasks.schema import KNOWN_CATEGORIES, ProjectRef, Tags, Task, TaskError
from scratch_gym.tasks.watchdog import did_not_finish, recover_evaluation

TASKS_DIR = Path("tasks")
STATIC_DIR = Path("scratch-gui") / "static"
SCRIPTS_DIR = Path("scratch-bench-api") / "api" / "evaluation_scripts"
UTILS_FILE = "evaluation_utils.js"
ID_PREFIX = "scratchworld-"
SERVICE_TIMEOUT_S = 120.0  # the original service's safety timeout per evaluation


TIME_MODES = ("virtual", "real")
SMALL_STAGE = (240, 180)  # ScratchWorld's runner switches the editor to the small stage


@dataclass(frozen=True)
class ScratchWorldSuite:
    """Scores a prepared project with one ScratchWorld evaluation script (an external suite).

    ``time="virtual"`` (default) runs the script's timers and clock and the VM's frame loop on one
    virtual clock, so waits cost no wall time; ``time="real"`` runs them on the browser's clock, as
    the original service does. ``stage``: the evaluation stage's size in pixels, which scripts
    read as the stage's edges.
    """

    function: str
    script: str
    utils: str | None
    config: dict[str, Any]
    timeout_s: float = SERVICE_TIMEOUT_S
    time: str = "virtual"
    stage: tuple[int, int] = SMALL_STAGE

    def __post_init__(self) -> None:
        if self.time not in TIME_MODES:
            raise ValueError(f"time must be one of {', '.join(TIME_MODES)}, not {self.time!r}")

    def with_time(self, time: str) -> ScratchWorldSuite:
        """The same suite run in ``time`` ("virtual" or "real")."""
        return replace(self, time=time)

    @property
    def watchdog_s(self) -> float:
        """When the page is stopped: the script's own timeout, plus a grace for the page to
        report it itself."""
        return self.timeout_s + max(1.0, self.timeout_s / 10)

    def outcome(self, page: EditorPage) -> dict[str, Any]:
        """Run the script on the prepared project and return what the page reports: ``{ok,
        value | error, wall_ms, virtual_ms?}``; a script stopped by the watchdog is ``ok``
        false with ``timeout`` true."""
        try:
            return self._outcome(page)
        except CallTimeout:
            recover_evaluation(page)
            message = did_not_finish(self.watchdog_s, "the evaluation script")
            return {"ok": False, "error": message, "timeout": True, "wall_ms": 0}
        except BridgeError as exc:
            return {"ok": False, "error": f"{exc.kind}: {exc}", "wall_ms": 0}

    def _outcome(self, page: EditorPage) -> dict[str, Any]:
        args = {
            "function": self.function,
            "script": self.script,
            "utils": self.utils,
            "config": self.config,
            "timeout_ms": int(self.timeout_s * 1000),
            "wall_ms": int(self.timeout_s * 1000),
            "time": self.time,
            "stage": list(self.stage),
        }
        return page.bridge.eval_scratchworld(args, self.watchdog_s)

    def run(self, page: EditorPage) -> list[TestResult]:
        try:
            outcome = self._outcome(page)
        except CallTimeout:
            recover_evaluation(page)
            return [
                TestResult(
                    self.function,
                    False,
                    did_not_finish(self.watchdog_s, "the evaluation script"),
                    0,
                    self.watchdog_s,
                )
            ]
        except BridgeError as exc:
            return [TestResult(self.function, False, f"{exc.kind}: {exc}", 0, 0.0)]
        wall_s = outcome.get("wall_ms", 0) / 1000
        frames = int(outcome.get("virtual_ms", 0) * 30 / 1000) if self.time == "virtual" else 0
        if not outcome.get("ok"):
            return [
                TestResult(
                    self.function,
                    False,
                    f"evaluation script failed: {outcome.get('error')}",
                    frames,
                    wall_s,
                )
            ]
        return results_from(self.function, outcome.get("value"), wall_s, frames)


def results_from(
    function: str, value: Any, wall_s: float = 0.0, frames: int = 0
) -> list[TestResult]:
    """ScratchWorld's result object (``details`` per case, or bare counts) as test results
    (``frames`` of virtual time, spread evenly over them)."""
    if isinstance(value, bool):
        message = "" if value else "the script returned false"
        return [TestResult(function, value, message, frames, wall_s)]
    if not isinstance(value, dict):
        message = f"the script returned {value!r}, not a result object"
        return [TestResult(function, False, message, frames, wall_s)]
    details = value.get("details")
    if isinstance(details, list) and details:
        n = len(details)
        out = []
        for i, d in enumerate(details):
            d = d if isinstance(d, dict) else {"passed": bool(d)}
            name = str(d.get("name") or d.get("test") or f"case_{i + 1}")
            passed = bool(d.get("passed", d.get("success", False)))
            message = "" if passed else _case_failure(d)
            out.append(TestResult(name, passed, message, frames // n, wall_s / n))
        return out
    total = int(value.get("total_tests") or 1)
    passed = int(value.get("passed_tests") or (total if value.get("success") else 0))
    return [
        TestResult(
            f"{function}_{i + 1}",
            i < passed,
            "" if i < passed else "failed",
            frames // total,
            wall_s / total,
        )
        for i in range(total)
    ]


def _case_failure(case: dict[str, Any]) -> str:
    """Why a case failed: its error, else "failed" with what the script measured (``meta``)."""
    error = case.get("error") or case.get("message")
    if error:
        return str(error)
    meta = case.get("meta")
    return f"failed; measured {json.dumps(meta)[:300]}" if meta else "failed"


class ScratchWorldCheckout:
    """A ScratchWorld checkout on disk; ``tasks()`` imports its task files."""

    def __init__(self, root: str | Path, time: str = "virtual") -> None:
        if time not in TIME_MODES:
            raise ValueError(f"time must be one of {', '.join(TIME_MODES)}, not {time!r}")
        self.time = time
        self.root = Path(root).expanduser().resolve()
        for sub in (TASKS_DIR, STATIC_DIR, SCRIPTS_DIR):
            if not (self.root / sub).is_dir():
                raise FileNotFoundError(
                    f"{self.root} is not a ScratchWorld checkout: {sub}/ is missing"
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
        name = name.removeprefix(ID_PREFIX)
        parts = name.split("_")
        for cut in range(len(parts), 0, -1):
            path = self.root / STATIC_DIR / f"{'_'.join(parts[:cut])}_golden.sb3"
            if path.is_file():
                return path
        return None

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
        suite = ScratchWorldSuite(
            function=function,
            script=script.read_text(encoding="utf-8"),
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
