"""``evaluate``: a task's ScratchWorld script on the session's current project, as their service
runs it (the script named by ``task_name``, ``config`` ``{}``), scored by scratch-gym's runner of
those scripts (:class:`~scratch_gym.scratchworld.evaluation.ScratchWorldSuite`): on a copy of the
project, so the agent's editor is untouched, in virtual time by default or real time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scratch_gym.editor.page import EditorPage
from scratch_gym.scratchworld.evaluation import ScratchWorldSuite
from scratch_gym.serve.projects import script_path, utils_text


def suite_for(root: Path, task_name: str, time: str) -> ScratchWorldSuite:
    """The suite their service would run for ``task_name`` (raises BadName / NotThere)."""
    script = script_path(root, task_name)
    return ScratchWorldSuite(
        function=task_name,
        script=script.read_text(encoding="utf-8"),
        utils=utils_text(root),
        config={},
        time=time,
    )


def evaluate_session(page: EditorPage, suite: ScratchWorldSuite) -> dict[str, Any]:
    """On the worker: their answer, ``{"status": "success", "result": <the script's result>,
    ...}`` or ``{"status": "failed", "error": ...}``."""
    page.bridge.eval_prepare(None)
    outcome = suite.outcome(page)
    common = {"evaluation_method": "browser", "stdout": "", "time": suite.time}
    common["wall_ms"] = round(outcome.get("wall_ms", 0))
    if outcome.get("ok"):
        return {"status": "success", "result": outcome.get("value"), "message": "", **common}
    return {"status": "failed", "error": str(outcome.get("error")), "result": {}, **common}
