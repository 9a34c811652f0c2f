"""How an episode ended: the ``status`` of a result record, what counts, what resumes redo, and
the exit codes of ``scratch-gym run``. The one source of truth for the status vocabulary.

* ``success``: the task's tests pass at the end of the episode.
* ``failure``: the agent's own outcome: it answered ``done`` or ``failed`` without success, or the
  step budget ran out (``ended_by`` says which: ``done``, ``failed``, ``budget``).
* ``agent_error``: the agent broke: it raised an exception, or could not plan the task (an oracle
  reports ``unsupported`` in its info).
* ``infrastructure_error``: outside the agent: the page or browser died and retries ran out, a
  worker process died, the browser could not start, or the agent's model API was unreachable
  (:class:`~scratch_gym.agents.base.AgentError`).

Every episode counts in the success rates (the papers' denominator: every selected task x runs):
agent errors and infrastructure errors are non-successes (PSR 0 unless measured), and tables show
both counts beside the rates. Success, failure and agent errors are kept on resume; infrastructure
errors are redone (``--resume``), and the redone episode's record replaces the error. Records
written before this vocabulary (``status: ok`` plus ``success``) are read as success or failure.
"""

from __future__ import annotations

from typing import Any

SUCCESS = "success"
FAILURE = "failure"
AGENT_ERROR = "agent_error"
INFRASTRUCTURE_ERROR = "infrastructure_error"
LEGACY_OK = "ok"

STATUSES = {
    SUCCESS: "the task's tests pass",
    FAILURE: "the agent answered done/failed without success, or the step budget ran out",
    AGENT_ERROR: "the agent raised an exception or could not plan the task",
    INFRASTRUCTURE_ERROR: "the browser, page, worker or the agent's API failed",
}
COUNTED = frozenset({SUCCESS, FAILURE, AGENT_ERROR, LEGACY_OK})  # the agent's own outcomes
DONE = COUNTED  # kept on resume; infrastructure errors are redone

EXIT_CODES = {SUCCESS: 0, FAILURE: 1, AGENT_ERROR: 3, INFRASTRUCTURE_ERROR: 4}  # 2: usage error


def status_of(record: dict[str, Any]) -> str:
    """The record's status in the current vocabulary (``ok`` read as success or failure)."""
    status = str(record.get("status", ""))
    if status == LEGACY_OK:
        return SUCCESS if record.get("success") else FAILURE
    return status


def is_counted(record: dict[str, Any]) -> bool:
    return record.get("status") in COUNTED


def exit_code(record: dict[str, Any]) -> int:
    """The process exit code for an episode record (unknown statuses: infrastructure)."""
    return EXIT_CODES.get(status_of(record), EXIT_CODES[INFRASTRUCTURE_ERROR])


def exit_codes_help() -> str:
    """The exit codes as help text (``scratch-gym run --help`` and the README)."""
    rows = [(code, f"{status}: {STATUSES[status]}") for status, code in EXIT_CODES.items()]
    rows.append((2, "usage error (bad arguments)"))
    return "\n".join(["exit codes (with --task):"] + [f"  {c}  {text}" for c, text in sorted(rows)])
