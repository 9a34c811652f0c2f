"""The FastAPI app: scratch-bench-api's session routes over scratch-gym's editor.

Every session route resolves its session (404 when unknown or expired), then runs its handler on
the worker thread that owns the session's page (:mod:`.worker`). Status codes are theirs: 404
unknown session, 422 a malformed body, 429 the session cap, 500 a failure of the page; action
failures are 200 answers whose envelope says ``success: false``. Added guards: the bearer token
and body cap (:mod:`.security`), 400 for a project or task name outside the checkout, 403 for
``custom_js`` without ``--allow-js`` (a drag task's workspace state is served without it, as
scratch-gym's view: :mod:`.drag_view`), 403 for the oracle channel without ``--oracle-channel``
(:mod:`.oracle_channel`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import FastAPI, HTTPException, Query
from fastapi.responses import JSONResponse

from scratch_gym.editor.page import BridgeError, EditorPage, PageDeadError
from scratch_gym.serve import drag_view, handlers, oracle_channel
from scratch_gym.serve.composite import JS_REFUSED
from scratch_gym.serve.composite import execute as composite_execute
from scratch_gym.serve.config import ServeConfig
from scratch_gym.serve.elements import SelectorError
from scratch_gym.serve.evaluation import evaluate_session, suite_for
from scratch_gym.serve.projects import BadName, NotThere, project_path
from scratch_gym.serve.request_bodies import (
    ClickAction,
    CompositeRequest,
    DoubleClickAction,
    DragAndDropAction,
    EvaluationRequest,
    HoldKeyAction,
    HotkeyAction,
    KeyAction,
    MoveToAction,
    ReleaseKeyAction,
    ScrollAction,
    TypeAction,
)
from scratch_gym.serve.security import Guard
from scratch_gym.serve.sessions import Session, SessionsFull, SessionTable, UnknownSession
from scratch_gym.serve.worker import Worker

log = logging.getLogger("scratch_gym.serve")
READY_TIMEOUT_S = 120.0  # how long startup waits for the workers' first warm pages
EXPIRE_EVERY_S = 30.0


def create_app(config: ServeConfig) -> Any:
    """The ASGI app for ``config`` (the FastAPI app behind the guard middleware)."""
    workers = [Worker(f"scratch-gym-worker-{i}") for i in range(config.parallel)]
    table = SessionTable(workers, config.max_sessions, config.session_ttl_s)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        for worker in workers:
            worker.start()
        for worker in workers:
            await asyncio.to_thread(worker.ready.wait, READY_TIMEOUT_S)
        expiry = asyncio.create_task(_expire_loop(table))
        try:
            yield
        finally:
            expiry.cancel()
            await table.delete_all()
            for worker in workers:
                await asyncio.to_thread(worker.stop)

    app = FastAPI(title="scratch-gym serve (scratch-bench-api)", lifespan=lifespan)
    app.state.table = table
    app.state.config = config
    root = config.root
    drag_views = drag_view.DragViews(root)

    async def on_page(session_id: str, fn: Callable[[EditorPage], Any]) -> Any:
        """Run ``fn(page)`` on the session's worker; page failures become 500s."""
        session = _session(table, session_id)
        try:
            return await session.worker.run(lambda: _live(session, fn))
        except UnknownSession as exc:
            raise HTTPException(404, str(exc)) from None
        except (PageDeadError, BridgeError) as exc:
            raise HTTPException(500, f"the editor page failed: {exc}") from None

    def action(
        name: str, model: type, run: Callable[[EditorPage, str, Any], dict[str, Any]]
    ) -> None:
        async def route(session_id: str, body: model) -> Any:  # type: ignore[valid-type]
            return await on_page(session_id, lambda page: run(page, session_id, body))

        route.__annotations__["body"] = model  # the model itself, not the string "model"
        route.__name__ = f"session_{name}"
        app.post(f"/sessions/{{session_id}}/{name}")(route)

    # -- service and sessions ------------------------------------------------------------------
    @app.get("/")
    async def index() -> dict[str, Any]:
        return {"message": "scratch-gym serve: Scratch GUI Agent environment is running"}

    @app.post("/sessions")
    async def create_session(
        record: bool = False,
        quality: str = "medium",
        task_name: str | None = None,
        save_dir: str | None = None,
    ) -> dict[str, Any]:
        try:
            session = await table.create(record=record)
        except SessionsFull as exc:
            raise HTTPException(429, str(exc)) from None
        except (PageDeadError, BridgeError) as exc:
            raise HTTPException(500, f"could not open an editor page: {exc}") from None
        await session.worker.run(session.page.start_vm)
        return {
            "session_id": session.session_id,
            "created_at": session.created_at,
            "is_recording": session.is_recording,
        }

    @app.get("/sessions")
    async def list_sessions() -> JSONResponse:
        data = table.list()
        headers = {
            "X-Max-Sessions": str(table.max_sessions),
            "X-Active-Sessions": str(len(data)),
            "X-Available-Sessions": str(max(0, table.max_sessions - len(data))),
        }
        return JSONResponse(data, headers=headers)

    @app.get("/sessions/count")
    async def count_sessions() -> dict[str, Any]:
        active = len(table.list())
        return {
            "active_sessions": active,
            "max_sessions": table.max_sessions,
            "available_sessions": max(0, table.max_sessions - active),
        }

    @app.delete("/sessions")
    async def delete_all_sessions() -> dict[str, Any]:
        return await table.delete_all()

    @app.get("/sessions/{session_id}")
    async def session_info(session_id: str) -> dict[str, Any]:
        return _session(table, session_id).info()

    @app.delete("/sessions/{session_id}")
    async def delete_session(session_id: str) -> dict[str, Any]:
        try:
            return await table.delete(session_id)
        except UnknownSession as exc:
            raise HTTPException(404, str(exc)) from None

    # -- observations --------------------------------------------------------------------------
    @app.get("/sessions/{session_id}/screenshot")
    async def screenshot(session_id: str, format: str = "base64", full_page: bool = True) -> Any:
        if format != "base64":
            raise HTTPException(400, f"format {format!r} is not served (allowed: base64)")
        return await on_page(session_id, handlers.screenshot)

    @app.get("/sessions/{session_id}/elements_batch")
    async def elements_batch(session_id: str, selectors: str = Query(max_length=4000)) -> Any:
        try:
            return await on_page(session_id, lambda page: handlers.elements(page, selectors))
        except SelectorError as exc:
            raise HTTPException(400, str(exc)) from None

    @app.get("/sessions/{session_id}/viewport_size")
    async def viewport_size(session_id: str) -> dict[str, Any]:
        from scratch_gym.editor.page import VIEWPORT

        _session(table, session_id)
        size = {"width": VIEWPORT[0], "height": VIEWPORT[1]}
        return {**size, "viewport_size": size}

    # -- actions -------------------------------------------------------------------------------
    action("click", ClickAction, handlers.click)
    action("double_click", DoubleClickAction, lambda p, s, a: handlers.click(p, s, a, clicks=2))
    action("move_to", MoveToAction, handlers.move_to)
    action("drag_and_drop", DragAndDropAction, handlers.drag_and_drop)
    action("scroll", ScrollAction, handlers.scroll)
    action("type", TypeAction, handlers.type_text)
    action("key", KeyAction, lambda p, s, a: handlers.key(p, s, "key", a))
    action("hold_key", HoldKeyAction, lambda p, s, a: handlers.key(p, s, "hold_key", a))
    action("release_key", ReleaseKeyAction, lambda p, s, a: handlers.key(p, s, "release_key", a))
    action("hotkey", HotkeyAction, handlers.hotkey)

    @app.post("/sessions/{session_id}/toggle_stage")
    async def toggle_stage(session_id: str) -> Any:
        return await on_page(session_id, handlers.toggle_stage)

    @app.post("/sessions/{session_id}/composite/execute")
    async def composite(session_id: str, req: CompositeRequest) -> Any:
        session = _session(table, session_id)
        state = session.composite
        args = dict(req.args) if isinstance(req.args, dict) else {}
        wanted = drag_view.workspace_state(args) if req.api == "custom_js" else None
        task = drag_views.task_for(session.project, wanted) if wanted is not None else None
        if task is not None:  # a drag task's view: scratch-gym's, no client JavaScript
            return await on_page(
                session_id, lambda page: drag_view.set_view(page, session_id, task, args)
            )
        if req.api == "custom_js" and not config.allow_js:
            raise HTTPException(403, JS_REFUSED)
        return await on_page(
            session_id,
            lambda page: composite_execute(page, session_id, req, config.allow_js, state),
        )

    # -- projects and evaluation ---------------------------------------------------------------
    @app.post("/sessions/{session_id}/load_project")
    async def load_project(session_id: str, project_name: str = Query(max_length=300)) -> Any:
        _session(table, session_id)
        path = _checked(lambda: project_path(root, project_name))
        data = path.read_bytes()
        answer = await on_page(
            session_id, lambda page: handlers.load_project(page, data, project_name)
        )
        _session(table, session_id).project = project_name
        return answer

    @app.post("/sessions/{session_id}/export_project")
    async def export_project(session_id: str, output_name: str = Query(max_length=300)) -> Any:
        return await on_page(session_id, lambda page: handlers.export_project(page, output_name))

    @app.post("/sessions/{session_id}/evaluate")
    async def evaluate_project(session_id: str, request: EvaluationRequest) -> Any:
        _session(table, session_id)
        if request.evaluation_method != "browser":
            raise HTTPException(
                400,
                f"Unsupported evaluation method: {request.evaluation_method} (allowed: browser)",
            )
        suite = _checked(lambda: suite_for(root, request.task_name, config.time))
        return await on_page(session_id, lambda page: evaluate_session(page, suite))

    # -- the oracle channel (--oracle-channel only) ---------------------------------------------
    def oracle_allowed() -> None:
        if not config.oracle_channel:
            raise HTTPException(403, oracle_channel.ORACLE_REFUSED)

    @app.get("/oracle/sessions")
    async def oracle_sessions() -> dict[str, Any]:
        oracle_allowed()
        return table.list(with_project=True)

    @app.post("/sessions/{session_id}/oracle/call")
    async def oracle_call(session_id: str, req: oracle_channel.OracleCall) -> Any:
        oracle_allowed()
        try:
            return await on_page(session_id, lambda page: oracle_channel.call(page, req))
        except oracle_channel.NotARead as exc:
            raise HTTPException(400, str(exc)) from None

    return Guard(app, config.token, config.max_body_bytes)


def _session(table: SessionTable, session_id: str) -> Session:
    try:
        return table.get(session_id)
    except UnknownSession as exc:
        raise HTTPException(404, str(exc)) from None


def _live(session: Session, fn: Callable[[EditorPage], Any]) -> Any:
    """On the worker: ``fn(page)`` unless the session was closed while the call waited."""
    if session.closed:
        raise UnknownSession(session.session_id)
    return fn(session.page)


def _checked(fn: Callable[[], Any]) -> Any:
    """A name check: BadName is 400, NotThere 404."""
    try:
        return fn()
    except BadName as exc:
        raise HTTPException(400, str(exc)) from None
    except NotThere as exc:
        raise HTTPException(404, str(exc)) from None


async def _expire_loop(table: SessionTable) -> None:
    while True:
        await asyncio.sleep(EXPIRE_EVERY_S)
        try:
            await table.expire()
        except Exception:  # noqa: BLE001 - the loop must outlive one bad close
            log.exception("closing idle sessions failed")
