"""A CPU burner: busy processes that keep cores fully loaded while a check runs."""

from __future__ import annotations

import multiprocessing as mp
import time
from types import TracebackType


def _burn(stop_at: float) -> None:
    x = 0
    while time.monotonic() < stop_at:
        for _ in range(10_000):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF


class CpuBurner:
    """``with CpuBurner(processes=1): ...`` keeps ``processes`` cores busy (bounded in time)."""

    def __init__(self, processes: int = 1, max_seconds: float = 600.0) -> None:
        self.processes = processes
        self.max_seconds = max_seconds
        self._procs: list[mp.Process] = []

    def __enter__(self) -> CpuBurner:
        stop_at = time.monotonic() + self.max_seconds
        ctx = mp.get_context("spawn")
        self._procs = [
            ctx.Process(target=_burn, args=(stop_at,), daemon=True) for _ in range(self.processes)
        ]
        for p in self._procs:
            p.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        for p in self._procs:
            p.terminate()
        for p in self._procs:
            p.join(timeout=5)
        self._procs = []
