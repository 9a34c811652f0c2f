"""A static HTTP server on loopback for the editor and the host page (one per process).

``/`` serves the cached editor build (the bundle loads ``/chunks/...`` and ``/static/...`` from the
web root); ``/scratch-gym/`` serves ``web/scratch-editor`` (host page and JavaScript bridge).
"""

from __future__ import annotations

import functools
import mimetypes
import threading
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

from scratch_gym.editor.install import require_editor
from scratch_gym.paths import web_dir

HOST_PREFIX = "/scratch-gym/"
HOST_PAGE = "/index.html"  # at the web root: the editor resolves static/ relative to the page

mimetypes.add_type("application/javascript", ".js")
mimetypes.add_type("image/svg+xml", ".svg")
mimetypes.add_type("application/wasm", ".wasm")


class _Handler(SimpleHTTPRequestHandler):
    editor_root: Path
    host_root: Path

    def translate_path(self, path: str) -> str:
        rel = unquote(urlsplit(path).path)
        if rel in ("/", HOST_PAGE):
            base, rel = self.host_root, "index.html"
        elif rel.startswith(HOST_PREFIX):
            base, rel = self.host_root, rel[len(HOST_PREFIX) :]
        else:
            base = self.editor_root
        target = (base / rel.lstrip("/")).resolve()
        if base.resolve() not in target.parents and target != base.resolve():
            return str(base / "__forbidden__")
        return str(target)

    def end_headers(self) -> None:
        if self.path.startswith(HOST_PREFIX) or urlsplit(self.path).path in ("/", HOST_PAGE):
            self.send_header("Cache-Control", "no-store")
        else:
            self.send_header("Cache-Control", "public, max-age=31536000, immutable")
        super().end_headers()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        if code == HTTPStatus.NOT_FOUND:
            self.log_message("404 %s", self.path)
        super().send_error(code, message, explain)

    def log_message(self, format: str, *args: object) -> None:  # quiet by default
        pass


class EditorServer:
    """Serves the editor on ``127.0.0.1`` at a free port, in a daemon thread."""

    def __init__(self) -> None:
        handler = type(
            "EditorHandler", (_Handler,), {"editor_root": require_editor(), "host_root": web_dir()}
        )
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, name="scratch-gym-http", daemon=True
        )
        self._thread.start()

    @property
    def origin(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def page_url(self) -> str:
        return self.origin + HOST_PAGE

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


_lock = threading.Lock()
_server: EditorServer | None = None


def shared_server() -> EditorServer:
    """The process-wide server, started on first use."""
    global _server
    with _lock:
        if _server is None:
            _server = EditorServer()
        return _server
