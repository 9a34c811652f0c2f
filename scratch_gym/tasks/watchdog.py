"""The hang guard: every evaluation call into the page ends within its test's wall budget.

The page checks a test's wall-clock deadline between frames and at every clock read inside one,
but a program can keep the page busy where nothing is checked (a single renderer or list call
that never returns). :class:`Watchdog` gives such a call a time limit kept outside the page: when
it runs out, the page's JavaScript is stopped where it is, the evaluation state is repaired
(``eval.recover``: a fresh evaluation VM for the next test) and the test fails with "did not
finish within N s". The editor's VM and the agent's project live beside the evaluation VM and are
not touched, so the episode goes on.
"""

from __future__ import annotations

from typing import Any

from scratch_gym.editor.bridge import EvalRun
from scratch_gym.editor.page import BridgeError, CallTimeout, EditorPage, PageDeadError

# Part of the time left that the page's own deadline leaves to the watchdog, so that the page
# reports an ordinary overrun itself and the watchdog only stops what never returns.
WATCHDOG_MARGIN_S = 0.25
MIN_CALL_S = 0.05


def recover_evaluation(page: EditorPage) -> None:
    """Repair the evaluation state after a stopped call (retried once: a stop request that
    arrived after the call had returned stops the next piece of JavaScript instead)."""
    for attempt in range(2):
        try:
            page.bridge.eval_recover()
            return
        except (PageDeadError, BridgeError):
            if attempt:
                raise


def did_not_finish(budget_s: float, what: str = "the test") -> str:
    return (
        f"{what} did not finish within {budget_s:.1f} s (its wall-clock budget): the program "
        "kept the page busy without ever returning, and was stopped"
    )


class Watchdog:
    """The page as a test's :class:`~scratch_gym.tasks.test_api.Run` sees it: ``eval.run`` calls that
    end within the time the test has left (``wall_ms``), stopped and reported otherwise."""

    def __init__(self, page: EditorPage, budget_s: float) -> None:
        self.page = page
        self.budget_s = budget_s
        self.stopped = False

    def eval_run(
        self, ops: list[dict[str, Any]], *, wall_ms: int, begin: dict[str, Any] | None = None
    ) -> EvalRun:
        """``eval.run`` (:meth:`~scratch_gym.editor.bridge.Bridge.eval_run`), stopped when it
        outlives ``wall_ms``: the page gets a little less, so that it reports an overrun itself."""
        left_s = wall_ms / 1000
        margin = min(WATCHDOG_MARGIN_S, left_s / 5)
        wall_ms = max(1, int((left_s - margin) * 1000))
        try:
            return self.page.bridge.eval_run(
                ops, wall_ms=wall_ms, begin=begin, timeout_s=max(MIN_CALL_S, left_s)
            )
        except CallTimeout:
            self.stopped = True
            recover_evaluation(self.page)
            raise BridgeError("wall_budget", did_not_finish(self.budget_s)) from None
