"""The action envelope every action route answers with (scratch-bench-api's v2 shape)::

{"success": bool, "requested_action": {"api", "args"}, "executed_action": {"api", "args"},
 "data": {}, "error": null | {"code", "message", "details"?}, "meta": {"session_id",
 "timestamp", "duration_ms"}}
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any


def _timestamp() -> str:
    return datetime.now(UTC).isoformat().replace("+00:00", "Z")


def meta(session_id: str | None, started: float) -> dict[str, Any]:
    """``meta``: the session, an ISO UTC timestamp and the time since ``started``
    (``time.perf_counter()``) in whole milliseconds."""
    ms = max(0, round((time.perf_counter() - started) * 1000))
    return {"session_id": session_id, "timestamp": _timestamp(), "duration_ms": ms}


def ok(
    api: str,
    requested: dict[str, Any],
    executed: dict[str, Any],
    session_id: str | None,
    started: float,
    data: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A successful action."""
    return {
        "success": True,
        "requested_action": {"api": api, "args": dict(requested)},
        "executed_action": {"api": api, "args": dict(executed)},
        "data": dict(data or {}),
        "error": None,
        "meta": meta(session_id, started),
    }


def failed(
    api: str,
    requested: dict[str, Any],
    executed: dict[str, Any],
    session_id: str | None,
    started: float,
    code: str,
    message: str,
    details: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A failed action: ``code`` is INVALID_ARG, ACTION_EXECUTION_ERROR, ... as theirs."""
    error: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        error["details"] = details
    return {
        "success": False,
        "requested_action": {"api": api, "args": dict(requested)},
        "executed_action": {"api": api, "args": dict(executed)},
        "data": {},
        "error": error,
        "meta": meta(session_id, started),
    }
