"""ScratchWorld's own evaluation scripts, run in the page: the ``external`` suite of an imported
task (:mod:`scratch_gym.scratchworld.tasks`) and of the HTTP service (:mod:`scratch_gym.serve`).

A script (``module.exports = async (vm, config, cleanup) => result``, with ``evaluation_utils.js``
as ``window.EvaluationUtils``) runs against the evaluation copy of the project (never the agent's
VM), on the small stage that ScratchWorld's runner uses, in virtual time by default (the script's
timers, its clock and the VM's frames on one virtual clock: waits cost no wall time) or in real
time as the original service runs it (``time="real"``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from scratch_gym.editor.page import BridgeError, CallTimeout, EditorPage
from scratch_gym.tasks.evaluator import TestResult
from scratch_gym.tasks.watchdog import did_not_finish, recover_evaluation

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
