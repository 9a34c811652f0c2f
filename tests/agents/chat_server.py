"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1 for tests."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# (request body) -> (HTTP status, reply text, or the response's "choices" list as it is)
Script = Callable[[dict[str, Any]], tuple[int, str | list[dict[str, Any]]]]


class ChatServer:
    """Serves POST /v1/chat/completions by calling ``script``; keeps every request body."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append(body)
                server.headers.append(dict(self.headers))
                status, text = server.script(body)
                if status == 200:
                    choices = (
                        text
                        if isinstance(text, list)
                        else [{"index": 0, "message": {"role": "assistant", "content": text}}]
                    )
                    payload = {
                        "id": f"r{len(server.requests)}",
                        "object": "chat.completion",
                        "choices": choices,
                        "usage": {
                            "prompt_tokens": 1000,
                            "completion_tokens": 50,
                            "total_tokens": 1050,
                        },
                    }
                else:
                    payload = {"error": {"message": text}}
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> ChatServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def garbage_then_500_then(garbage: str, reply: Callable[[dict[str, Any]], str]) -> Script:
    """A script whose first reply is ``garbage`` (unparseable), whose second request fails with
    HTTP 500, and which answers every later request with ``reply(body)``."""
    calls = {"n": 0}

    def script(body: dict[str, Any]) -> tuple[int, str]:
        calls["n"] += 1
        if calls["n"] == 1:
            return 200, garbage
        if calls["n"] == 2:
            return 500, "upstream overloaded"
        return 200, reply(body)

    return script
