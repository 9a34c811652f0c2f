"""Worker threads: each owns one browser and every Playwright object of its sessions.

Playwright's sync API is bound to the thread that started it, so a request never touches a page
from the server's event loop: it is queued to the worker that owns the session's page and runs
there, in arrival order. While its queue is empty a worker keeps one editor page loaded (the warm
page), so that opening a session takes that page instead of loading the editor (seconds).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from scratch_gym.editor.page import EditorPage

T = TypeVar("T")
log = logging.getLogger("scratch_gym.serve")


class Worker:
    """One thread, one browser. ``submit(fn)`` runs ``fn()`` on the thread."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.sessions = 0  # sessions placed here (the table's count, changed on the loop only)
        self._jobs: queue.Queue[tuple[Callable[[], Any], concurrent.futures.Future] | None] = (
            queue.Queue()
        )
        self._warm: EditorPage | None = None
        self._idle_s = 0.05  # how long an empty queue waits before loading the warm page
        self.ready = threading.Event()  # set once the first warm page is loaded (or failed)
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)

    @property
    def warm(self) -> bool:
        """Is a warm page loaded and waiting (read from the event loop: a hint for placement)?"""
        return self._warm is not None

    def start(self) -> None:
        self._thread.start()

    def submit(self, fn: Callable[[], T]) -> concurrent.futures.Future[T]:
        future: concurrent.futures.Future[T] = concurrent.futures.Future()
        self._jobs.put((fn, future))
        return future

    async def run(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` on the thread and await its result (its exception is raised here)."""
        return await asyncio.wrap_future(self.submit(fn))

    def stop(self, timeout_s: float = 30.0) -> None:
        """Finish the queued jobs, close the pages and the browser, end the thread."""
        self._jobs.put(None)
        self._thread.join(timeout_s)

    # -- on the thread ---------------------------------------------------------------------------
    def take_page(self) -> EditorPage:
        """A loaded editor page for a new session: the warm one, else a new one (thread only)."""
        page, self._warm = self._warm, None
        if page is not None and page.is_alive():
            page.start_vm()  # it rested while it waited; a new page's frame loop runs
            return page
        if page is not None:
            page.close()
        return EditorPage().open()

    def _loop(self) -> None:
        while True:
            try:
                job = self._jobs.get(timeout=None if self._warm is not None else self._idle_s)
            except queue.Empty:
                self._keep_warm()
                continue
            if job is None:
                break
            fn, future = job
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn())
            except BaseException as exc:  # noqa: BLE001 - handed to the awaiting request
                future.set_exception(exc)
        self._shutdown()

    def _keep_warm(self) -> None:
        try:
            self._warm = EditorPage().open()
            self._warm.rest()  # no frame loop while it waits (see EditorPage.rest)
            self._idle_s = 0.05
        except Exception:  # noqa: BLE001 - a session open will try again and report it
            log.exception("%s: could not load a warm editor page", self.name)
            self._idle_s = 10.0  # not again at once
        finally:
            self.ready.set()

    def _shutdown(self) -> None:
        if self._warm is not None:
            self._warm.close()
            self._warm = None
        from scratch_gym.editor.browser import shared_session

        shared_session().shutdown()
