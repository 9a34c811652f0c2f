"""The service's guards, as one ASGI middleware in front of every route: the bearer token and the
request body cap. Both answer before a route runs, so a refused request touches no session."""

from __future__ import annotations

import hmac
import json
from typing import Any

Scope = dict[str, Any]


class Guard:
    """Refuses a request without ``Authorization: Bearer <token>`` (401, when a token is set) or
    with a body over ``max_body_bytes`` (413), whether announced by Content-Length or streamed."""

    def __init__(self, app: Any, token: str | None, max_body_bytes: int) -> None:
        self.app = app
        self.token = token
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        if self.token is not None and not self._authorized(headers.get("authorization", "")):
            await _refuse(
                send, 401, "missing or wrong bearer token", {"www-authenticate": "Bearer"}
            )
            return
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body_bytes):
            await _refuse(send, 413, f"request body over {self.max_body_bytes} bytes")
            return
        seen = 0
        too_big = False

        async def capped_receive() -> dict[str, Any]:
            nonlocal seen, too_big
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body_bytes:
                    too_big = True
                    return {"type": "http.disconnect"}
            return message

        started = False

        async def guarded_send(message: dict[str, Any]) -> None:
            nonlocal started
            if too_big and not started:
                started = True
                await _refuse(send, 413, f"request body over {self.max_body_bytes} bytes")
                return
            if too_big:
                return
            started = True
            await send(message)

        await self.app(scope, capped_receive, guarded_send)

    def _authorized(self, header: str) -> bool:
        scheme, _, value = header.partition(" ")
        assert self.token is not None
        return scheme.lower() == "bearer" and hmac.compare_digest(value.strip(), self.token)


async def _refuse(send: Any, status: int, detail: str, extra: dict[str, str] | None = None) -> None:
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    headers += [(k.encode(), v.encode()) for k, v in (extra or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
