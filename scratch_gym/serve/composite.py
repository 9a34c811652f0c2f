"""``composite/execute``: scratch-bench-api's composite API names, in their envelope.

Served so far: ``run_project``, ``stop_project``, ``select_sprite``, ``select_stage`` and
``custom_js`` (the caller's own page JavaScript: refused unless the service runs with
``--allow-js``). Other names answer ``success: false`` with code ``UNSUPPORTED`` and say so.
"""

from __future__ import annotations

import time
from typing import Any

from scratch_gym.editor.page import BridgeError, EditorPage
from scratch_gym.serve import envelope
from scratch_gym.serve.models import CompositeRequest

JS_REFUSED = "custom_js is refused: the service runs without --allow-js"


class JsRefused(PermissionError):
    """custom_js without --allow-js (403)."""


def execute(
    page: EditorPage, session_id: str, req: CompositeRequest, allow_js: bool
) -> dict[str, Any]:
    """On the worker: one composite call, answered in the envelope."""
    started = time.perf_counter()
    api, args = req.api, dict(req.args or {})

    def ok(executed: dict[str, Any], data: dict[str, Any] | None = None) -> dict[str, Any]:
        return envelope.ok(api, args, executed, session_id, started, data)

    def failed(code: str, message: str, executed: dict[str, Any] | None = None) -> dict[str, Any]:
        return envelope.failed(api, args, executed or {}, session_id, started, code, message)

    try:
        if api == "custom_js":
            if not allow_js:
                raise JsRefused(JS_REFUSED)
            source = str(args.get("fn") or args.get("function") or args.get("code") or "").strip()
            if not source:
                return failed("INVALID_ARG", "'fn' (JS function source) is required")
            executed = {"fn": source, **({"payload": args["payload"]} if "payload" in args else {})}
            out = page.bridge.page_custom_js(source, args.get("payload"))
            if not out.get("ok"):
                return failed(str(out.get("code")), str(out.get("error")), executed)
            value = out.get("value")
            return ok(executed, value if isinstance(value, dict) else {"value": value})
        if api == "run_project":
            page.bridge.composite_run()
            return ok({})
        if api == "stop_project":
            page.bridge.composite_stop()
            return ok({})
        if api == "select_sprite":
            name = args.get("name")
            if not isinstance(name, str) or not name:
                return failed("INVALID_ARG", "'name' (a sprite's name) is required")
            page.bridge.composite_select(name)
            return ok({"name": name})
        if api == "select_stage":
            page.bridge.composite_select(stage=True)
            return ok({})
    except BridgeError as exc:
        return failed("RUNTIME_ERROR", f"{exc.kind}: {exc}")
    return failed("UNSUPPORTED", f"Unsupported api: {api} (not yet served by scratch-gym serve)")
