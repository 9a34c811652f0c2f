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

An imported :class:`~scratch_gym.tasks.schema.Task` has no golden project; its ``external`` suite
runs the script in the page against the evaluation copy of the project (never the agent's VM), in
real time as the scripts expect (so these runs are outside the determinism and speed figures).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scratch_gym.editor.page import EditorPage
from scratch_gym.tasks.evaluator import TestResult
from scratch_gym.tasks.schema import KNOWN_CATEGORIES, ProjectRef, Tags, Task, TaskError

TASKS_DIR = Path("tasks")
STATIC_DIR = Path("scratch-gui") / "static"
SCRIPTS_DIR = Path("scratch-bench-api") / "api" / "evaluation_scripts"
UTILS_FILE = "evaluation_utils.js"
ID_PREFIX = "scratchworld-"
SERVICE_TIMEOUT_S = 120.0  # the original service's safety timeout per evaluation


@dataclass(frozen=True)
class ScratchWorldSuite:
    """Scores a prepared project with one ScratchWorld evaluation script (an external suite)."""

    function: str
    script: str
    utils: str | None
    config: dict[str, Any]
    timeout_s: float = SERVICE_TIMEOUT_S

    def run(self, page: EditorPage) -> list[TestResult]:
        outcome = page.call(
            "eval.scratchworld",
            {
                "function": self.function,
                "script": self.script,
                "utils": self.utils,
                "config": self.config,
                "timeout_ms": int(self.timeout_s * 1000),
            },
        )
        wall_s = outcome.get("wall_ms", 0) / 1000
        if not outcome.get("ok"):
            return [
                TestResult(
                    self.function,
                    False,
                    f"evaluation script failed: {outcome.get('error')}",
                    0,
                    wall_s,
                )
            ]
        return results_from(self.function, outcome.get("value"), wall_s)


def results_from(function: str, value: Any, wall_s: float = 0.0) -> list[TestResult]:
    """ScratchWorld's result object (``details`` per case, or bare counts) as test results."""
    if isinstance(value, bool):
        return [
            TestResult(function, value, "" if value else "the script returned false", 0, wall_s)
        ]
    if not isinstance(value, dict):
        return [
            TestResult(
                function, False, f"the script returned {value!r}, not a result object", 0, wall_s
            )
        ]
    details = value.get("details")
    if isinstance(details, list) and details:
        out = []
        for i, d in enumerate(details):
            d = d if isinstance(d, dict) else {"passed": bool(d)}
            name = str(d.get("name") or d.get("test") or f"case_{i + 1}")
            passed = bool(d.get("passed", d.get("success", False)))
            message = "" if passed else str(d.get("error") or d.get("message") or "failed")
            out.append(TestResult(name, passed, message, 0, wall_s / len(details)))
        return out
    total = int(value.get("total_tests") or 1)
    passed = int(value.get("passed_tests") or (total if value.get("success") else 0))
    return [
        TestResult(
            f"{function}_{i + 1}", i < passed, "" if i < passed else "failed", 0, wall_s / total
        )
        for i in range(total)
    ]


class ScratchWorldCheckout:
    """A ScratchWorld checkout on disk; ``tasks()`` imports its task files."""

    def __init__(self, root: str | Path) -> None:
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
