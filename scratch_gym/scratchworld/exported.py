"""scratch-gym's own tasks exported as ScratchWorld tasks (``scratch-gym tasks
export-scratchworld``): the evaluation script that names the task, and the suite that scores it.

An exported task's evaluation script is in their format (``module.exports = async (vm, config,
cleanup) => result``) but holds no tests: the tests are scratch-gym's Python tests, which run
only in scratch-gym. The script's marker line names the task and the digest of what decides its
verdict::

    // scratch-gym-task: {"id": "say-hello", "digest": "sha256:..."}

``scratch-gym serve`` (and :class:`~scratch_gym.scratchworld.tasks.ScratchWorldCheckout`) read the
marker and score the project with the task's own tests, found by id in scratch-gym's task registry
(the shipped suite, ``--tasks-dir``, ``$SCRATCH_GYM_TASKS``): no code from the exported folder
runs in Python. A task whose files changed since the export (another digest) is refused. Run by
their original service, the script throws, saying so.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from scratch_gym.editor.page import EditorPage
from scratch_gym.tasks.evaluator import TestResult
from scratch_gym.tasks.projects import project_json
from scratch_gym.tasks.schema import ID_PATTERN, TASK_FILE, Task

MARKER = "// scratch-gym-task: "
_MARKER_LINE = re.compile(r"^// scratch-gym-task: (\{.*\})[ \t]*$", re.MULTILINE)


class ExportError(ValueError):
    """An exported task that cannot be scored: not known here, or changed since the export."""


def task_digest(task: Task) -> str:
    """``sha256:<hex>`` of what decides a task's verdicts: its ``task.toml``, the Python files of
    its folder (the tests) and its starting project's project.json (tests reset sprites to it)."""
    h = hashlib.sha256()
    folder = task.source
    files = [folder / TASK_FILE, *sorted(folder.glob("*.py"))] if folder else []
    for path in files:
        if path.is_file():
            h.update(f"{path.name}\0".encode())
            h.update(path.read_bytes())
            h.update(b"\0")
    if task.start is not None:
        h.update(json.dumps(project_json(task.start), sort_keys=True).encode())
    return f"sha256:{h.hexdigest()}"


def script_text(task: Task, digest: str) -> str:
    """The evaluation script of an exported task, in their format."""
    goals = "\n".join(f" * {i}) {spec.name}" for i, spec in enumerate(task.tests, 1))
    marker = json.dumps({"id": task.id, "digest": digest}, sort_keys=True)
    why = (
        f"{task.id} is a scratch-gym task: its unit tests are scratch-gym's and run only under "
        "`scratch-gym serve --scratchworld <this export>`"
    )
    instruction = " ".join(task.instruction.split()).replace("*/", "* /")
    return (
        "/**\n"
        f" * Instruction: {instruction}\n"
        " * Unit tests (scratch-gym's, run by scratch-gym serve):\n"
        f"{goals}\n"
        " */\n"
        f"{MARKER}{marker}\n"
        "module.exports = async (vm, config, cleanup) => {\n"
        "  if (typeof cleanup === 'function') cleanup();\n"
        f"  throw new Error({json.dumps(why)});\n"
        "};\n"
    )


def read_marker(script: str) -> dict[str, str] | None:
    """The marker of an exported task's script (``{"id", "digest"}``), or None for any other."""
    match = _MARKER_LINE.search(script)
    if match is None:
        return None
    try:
        data = json.loads(match.group(1))
    except json.JSONDecodeError:
        return None
    if not isinstance(data, dict):
        return None
    task_id, digest = data.get("id"), data.get("digest")
    if not isinstance(task_id, str) or not ID_PATTERN.match(task_id):
        return None
    if not isinstance(digest, str) or not digest.startswith("sha256:"):
        return None
    return {"id": task_id, "digest": digest}


@dataclass(frozen=True)
class ExportedSuite:
    """Scores a prepared project with the exported task's own tests (an external suite)."""

    task_id: str
    digest: str
    function: str = ""  # their task name (the script's file name)

    @classmethod
    def from_script(cls, script: str, function: str = "") -> ExportedSuite | None:
        marker = read_marker(script)
        return cls(marker["id"], marker["digest"], function) if marker else None

    def task(self) -> Task:
        """scratch-gym's task, checked to be the one exported (ExportError if not)."""
        from scratch_gym.tasks.registry import UnknownTaskError, load_task

        try:
            task = load_task(self.task_id)
        except UnknownTaskError:
            raise ExportError(
                f"exported task {self.task_id!r} is not a scratch-gym task here: give its task "
                "folder with --tasks-dir (or $SCRATCH_GYM_TASKS)"
            ) from None
        if task_digest(task) != self.digest:
            raise ExportError(
                f"exported task {self.task_id!r} changed since it was exported (its task.toml, "
                "tests or starting project differ): export it again"
            )
        return task

    def run(self, page: EditorPage) -> list[TestResult]:
        """The task's tests on the prepared project; one failed result when it cannot run."""
        from scratch_gym.tasks.evaluator import Evaluator

        try:
            task = self.task()
        except ExportError as exc:
            return [TestResult(self.function or self.task_id, False, str(exc))]
        return Evaluator(page, task).run_prepared()


def result_object(tests: list[TestResult]) -> dict[str, Any]:
    """Their result object for scratch-gym's test results: ``success`` (every test passed),
    ``passed_tests``, ``total_tests``, ``partial_success_rate`` and ``details`` per test."""
    passed = sum(t.passed for t in tests)
    total = len(tests)
    return {
        "success": bool(tests) and passed == total,
        "passed_tests": passed,
        "total_tests": total,
        "partial_success_rate": passed / total if total else 0.0,
        "details": [{"name": t.name, "passed": t.passed, "message": t.message} for t in tests],
    }
