"""Several ASGI apps served by one process on their own ports, started and stopped together
(``scratch-gym serve --ocr-port``: the main service and the OCR server)."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import threading
from collections.abc import Iterator
from typing import Any

import uvicorn


class _Server(uvicorn.Server):
    """A uvicorn server that leaves signals to :func:`serve_together` (uvicorn's own handlers
    would chain: the second server's would stop only itself, then force the first's exit)."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (OSError when it cannot be), before any app starts."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def server(app: Any, sock: socket.socket) -> uvicorn.Server:
    """A server for ``app`` on an already bound socket."""
    host, port = sock.getsockname()[:2]
    return _Server(uvicorn.Config(app, host=host, port=port, log_level="warning"))


async def serve_together(servers: list[tuple[uvicorn.Server, socket.socket]]) -> bool:
    """Serve until one server stops or SIGINT/SIGTERM arrives (in the main thread), then stop
    them all, each through its app's shutdown. True when every server had started."""
    loop = asyncio.get_running_loop()

    def stop() -> None:
        for srv, _ in servers:
            if srv.should_exit:
                srv.force_exit = True  # a second signal: stop without waiting
            srv.should_exit = True

    signals = (signal.SIGINT, signal.SIGTERM)
    handled = threading.current_thread() is threading.main_thread()
    if handled:
        for sig in signals:
            loop.add_signal_handler(sig, stop)
    try:
        tasks = [asyncio.create_task(_serve(srv, sock)) for srv, sock in servers]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for srv, _ in servers:
            srv.should_exit = True
        await asyncio.gather(*tasks)
    finally:
        if handled:
            for sig in signals:
                loop.remove_signal_handler(sig)
    return all(srv.started for srv, _ in servers)


async def _serve(srv: uvicorn.Server, sock: socket.socket) -> None:
    try:
        await srv.serve(sockets=[sock])
    except SystemExit:  # uvicorn exits when an app's startup fails; the others must still stop
        pass
