"""The oracle channel (``serve --oracle-channel``, off by default): the read-only privileged view
of a session's editor that scratch-gym's oracles use, over HTTP, for test tools that drive an
oracle against a live session (the scripted endpoint's primitive mode).

``GET /oracle/sessions`` lists the open sessions with the project each last loaded, and
``POST /sessions/{id}/oracle/call`` runs one of :class:`~scratch_gym.editor.bridge.ReadBridge`'s
read calls (or ``project.json``) on the session's page. Nothing here acts on a page. Without the
flag both answer 403: what they reveal (the VM's blocks, block geometry) is no agent's to see.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from scratch_gym.editor.bridge import READ_CALLS
from scratch_gym.editor.page import EditorPage

ORACLE_REFUSED = "the oracle channel is refused: the service runs without --oracle-channel"


class OracleCall(BaseModel):
    name: str
    args: dict[str, Any] | None = None


class NotARead(ValueError):
    """A call the channel does not serve (400)."""


def call(page: EditorPage, req: OracleCall) -> dict[str, Any]:
    """On the worker: ``{"value": ...}`` of one read call."""
    if req.name not in READ_CALLS:
        raise NotARead(f"{req.name!r} is not a read call of the oracle channel")
    return {"value": page.call(req.name, req.args)}  # project.json: its text, as the page gives it
