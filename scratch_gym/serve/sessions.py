"""The session table: open sessions by id, each on the worker that owns its page.

Sessions are placed on the worker with the fewest (one with its warm page ready first); at ``max_sessions`` open a new one is refused
(:class:`SessionsFull`, 429); a session idle for ``ttl_s`` is closed by :meth:`expire`. Every
method runs on the server's event loop; pages are touched only through their worker.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from scratch_gym.editor.page import EditorPage
from scratch_gym.serve.composite import CompositeState
from scratch_gym.serve.worker import Worker


class SessionsFull(RuntimeError):
    """The session cap is reached (429)."""


class UnknownSession(KeyError):
    """No open session has this id (404)."""

    def __str__(self) -> str:
        return f"Session not found: {self.args[0]}"


@dataclass
class Session:
    """One client's editor page, on ``worker``; ``page`` is used on the worker's thread only."""

    session_id: str
    worker: Worker
    page: EditorPage
    created_at: float = field(default_factory=time.time)
    last_used_at: float = field(default_factory=time.time)
    is_recording: bool = False
    closed: bool = False
    project: str | None = None  # the name of the project it last loaded
    composite: CompositeState = field(default_factory=CompositeState)  # used on the worker

    def info(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "created_at": self.created_at,
            "last_used_at": self.last_used_at,
            "is_recording": self.is_recording,
        }


class SessionTable:
    """Open sessions, the workers they live on, the cap and the idle limit."""

    def __init__(self, workers: list[Worker], max_sessions: int, ttl_s: float) -> None:
        self.workers = workers
        self.max_sessions = max_sessions
        self.ttl_s = ttl_s
        self._sessions: dict[str, Session] = {}
        self._opening = 0
        self.open_times_s: list[float] = []

    def __len__(self) -> int:
        return len(self._sessions)

    async def create(self, record: bool = False) -> Session:
        """Open a session on the least busy worker (raises :class:`SessionsFull`)."""
        await self.expire()
        if len(self._sessions) + self._opening >= self.max_sessions:
            raise SessionsFull(f"session limit reached: {self.max_sessions} open; delete one first")
        # the least busy worker, and among those one whose warm page is ready (not reloading)
        worker = min(self.workers, key=lambda w: (w.sessions, not w.warm))
        worker.sessions += 1
        self._opening += 1
        started = time.perf_counter()
        try:
            page = await worker.run(lambda: _opened(worker))
        except BaseException:
            worker.sessions -= 1
            raise
        finally:
            self._opening -= 1
        self.open_times_s.append(time.perf_counter() - started)
        session = Session(uuid.uuid4().hex, worker, page, is_recording=bool(record))
        self._sessions[session.session_id] = session
        return session

    def get(self, session_id: str) -> Session:
        """The open session ``session_id``, marked used now (raises :class:`UnknownSession`)."""
        session = self._sessions.get(session_id)
        if session is None or self._expired(session, time.time()):
            raise UnknownSession(session_id)
        session.last_used_at = time.time()
        return session

    def list(self, with_project: bool = False) -> dict[str, dict[str, Any]]:
        """The open sessions' info (and the project each last loaded, ``with_project``)."""
        now = time.time()
        return {
            s.session_id: {**s.info(), **({"project": s.project} if with_project else {})}
            for s in self._sessions.values()
            if not self._expired(s, now)
        }

    async def delete(self, session_id: str) -> dict[str, Any]:
        session = self._sessions.pop(session_id, None)
        if session is None:
            raise UnknownSession(session_id)
        await self._close(session)
        return {"status": "closed", "recording": None}

    async def delete_all(self) -> dict[str, Any]:
        closed, errors = 0, {}
        for sid in list(self._sessions):
            try:
                await self.delete(sid)
                closed += 1
            except Exception as exc:  # noqa: BLE001 - reported per session
                errors[sid] = str(exc)
        return {"closed": closed, "errors": errors}

    async def expire(self) -> int:
        """Close the sessions idle longer than ``ttl_s``; how many."""
        now = time.time()
        stale = [s for s in self._sessions.values() if self._expired(s, now)]
        for session in stale:
            self._sessions.pop(session.session_id, None)
            await self._close(session)
        return len(stale)

    def _expired(self, session: Session, now: float) -> bool:
        return self.ttl_s > 0 and now - session.last_used_at > self.ttl_s

    async def _close(self, session: Session) -> None:
        session.closed = True
        session.worker.sessions -= 1
        await session.worker.run(lambda: _closed(session.page))


def _opened(worker: Worker) -> EditorPage:
    """On the worker: a page for a new session, at a new page's view."""
    page = worker.take_page()
    page.stage_size("large")
    return page


def _closed(page: EditorPage) -> None:
    """On the worker: close a session's page (back to a new page's layout, so it can be reused)."""
    try:
        if page.is_alive():
            page.stage_size("large")
    finally:
        page.close()
