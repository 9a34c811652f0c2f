"""``evaluate``: a task's ScratchWorld script on the session's current project, as their service
runs it (the script named by ``task_name``, ``config`` ``{}``), scored by scratch-gym's runner of
those scripts (:class:`~scratch_gym.scratchworld.evaluation.ScratchWorldSuite`): on a copy of the
project, so the agent's editor is untouched, in virtual time by default or real time.

The script of a task that scratch-gym exported (``tasks export-scratchworld``) names the task
instead of holding tests: it is scored by the task's own tests
(:class:`~scratch_gym.scratchworld.exported.ExportedSuite`, always in virtual time), and the
answer's result is their result object with the pass fraction."""

from __future__ import annotations

from pathlib import Path
from time import perf_counter
from typing import Any

from scratch_gym.editor.page import EditorPage
from scratch_gym.scratchworld.evaluation import ScratchWorldSuite
from scratch_gym.scratchworld.exported import ExportedSuite, ExportError, result_object
from scratch_gym.serve.projects import script_path, utils_text

Suite = ScratchWorldSuite | ExportedSuite


def suite_for(root: Path, task_name: str, time: str) -> Suite:
    """The suite their service would run for ``task_name`` (raises BadName / NotThere)."""
    script = script_path(root, task_name).read_text(encoding="utf-8")
    exported = ExportedSuite.from_script(script, task_name)
    if exported is not None:
        return exported
    return ScratchWorldSuite(
        function=task_name,
        script=script,
        utils=utils_text(root),
        config={},
        time=time,
    )


def evaluate_session(page: EditorPage, suite: Suite) -> dict[str, Any]:
    """On the worker: their answer, ``{"status": "success", "result": <the script's result>,
    ...}`` or ``{"status": "failed", "error": ...}``."""
    if isinstance(suite, ExportedSuite):
        return _evaluate_exported(page, suite)
    page.bridge.eval_prepare(None)
    outcome = suite.outcome(page)
    common = {"evaluation_method": "browser", "stdout": "", "time": suite.time}
    common["wall_ms"] = round(outcome.get("wall_ms", 0))
    if outcome.get("ok"):
        return {"status": "success", "result": outcome.get("value"), "message": "", **common}
    return {"status": "failed", "error": str(outcome.get("error")), "result": {}, **common}


def _evaluate_exported(page: EditorPage, suite: ExportedSuite) -> dict[str, Any]:
    from scratch_gym.tasks.evaluator import Evaluator

    common: dict[str, Any] = {"evaluation_method": "browser", "stdout": "", "time": "virtual"}
    started = perf_counter()
    try:
        task = suite.task()
    except ExportError as exc:
        return {"status": "failed", "error": str(exc), "result": {}, **common, "wall_ms": 0}
    page.bridge.eval_prepare(None)
    result = result_object(Evaluator(page, task).run_prepared())
    common["wall_ms"] = round((perf_counter() - started) * 1000)
    return {"status": "success", "result": {**result, "task": task.id}, "message": "", **common}
