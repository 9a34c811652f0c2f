"""A real ``scratch-gym serve`` (uvicorn in a thread of the test process, real Chromium) for the
tests of this folder, on ScratchWorld's checkout in ../shared when it is there, else on the small
fixture checkout (tests that need the real one skip, or fail with SCRATCH_GYM_REQUIRE_SHARED=1)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.shared_data import REPO_ROOT, SCRATCHWORLD_DIR, require_shared

FIXTURE = REPO_ROOT / "tests" / "fixtures" / "scratchworld"
CHECKOUT = SCRATCHWORLD_DIR
# Their runners' fixed waits (2 s a turn, 12 s a drag task) are capped at this in their client
# processes (``dropin.client_env``); ``test_their_task_runner_solves_a_composite_task`` keeps
# the real clock.
WAIT_CAP_S = 0.05


def require_checkout() -> Path:
    """ScratchWorld's checkout in ../shared: skip without it (fail under
    SCRATCH_GYM_REQUIRE_SHARED=1)."""
    require_shared(CHECKOUT / "task_runner.py")
    return CHECKOUT


@dataclass
class Served:
    url: str
    root: Path
    app: object  # the guarded ASGI app (``.app`` is the FastAPI app)

    @property
    def table(self):
        return self.app.app.state.table

    @property
    def shared(self) -> bool:
        return self.root == CHECKOUT


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(config) -> tuple[object, threading.Thread, object]:
    import uvicorn

    from scratch_gym.serve.app import create_app

    app = create_app(config)
    server = uvicorn.Server(
        uvicorn.Config(app, host=config.host, port=config.port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 180
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("scratch-gym serve did not start")
        time.sleep(0.05)
    return app, thread, server


@pytest.fixture(scope="session")
def served() -> Iterator[Served]:
    """One service for the folder: two workers (--parallel 2), at most three sessions, with the
    oracle channel (the scripted endpoint's primitive mode reads sessions through it)."""
    from scratch_gym.serve.config import ServeConfig

    root = CHECKOUT if (CHECKOUT / "task_runner.py").is_file() else FIXTURE
    config = ServeConfig(
        scratchworld=root, port=free_port(), parallel=2, max_sessions=3, oracle_channel=True
    )
    app, thread, server = start(config)
    yield Served(f"http://127.0.0.1:{config.port}", root, app)
    server.should_exit = True
    thread.join(60)
