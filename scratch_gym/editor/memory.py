"""When to replace the editor page: its JavaScript heap has grown since the page opened.

Over hundreds of project loads the editor page slowly grows (about 0.8 MiB of renderer memory per
episode, in step with its JavaScript heap). A fresh page in a fresh renderer brings it back. The
guard measures the heap (after a garbage collection) once the page is warm, then every few
resets, and asks for a refresh only when the heap has grown past ``max_growth``; pages that stay
flat are never refreshed. Episodes are independent (each reset loads its project into the editor
and resets the view), so a refresh does not change results.
"""

from __future__ import annotations

from collections.abc import Callable

DEFAULT_MAX_GROWTH = 0.08
DEFAULT_WARMUP_RESETS = 10
DEFAULT_CHECK_EVERY = 10


class HeapGrowthGuard:
    """Counts a page's resets and decides, from its measured heap, whether to refresh it."""

    def __init__(
        self,
        max_growth: float | None = DEFAULT_MAX_GROWTH,
        warmup: int = DEFAULT_WARMUP_RESETS,
        check_every: int = DEFAULT_CHECK_EVERY,
    ) -> None:
        if warmup < 1 or check_every < 1:
            raise ValueError(f"warmup and check_every must be >= 1, got {warmup} and {check_every}")
        self.max_growth = max_growth
        self.warmup = warmup
        self.check_every = check_every
        self.baseline_mib: float | None = None
        self.last_mib: float | None = None
        self._resets = 0

    def page_opened(self) -> None:
        """A new page: measure its baseline again once it is warm."""
        self._resets = 0
        self.baseline_mib = None

    def should_refresh(self, heap_mib: Callable[[], float]) -> bool:
        """Called at each reset; ``heap_mib`` measures the heap (only called when needed)."""
        if self.max_growth is None:
            return False
        self._resets += 1
        if self._resets == self.warmup:
            self.baseline_mib = self.last_mib = heap_mib()
            return False
        if self.baseline_mib is None or (self._resets - self.warmup) % self.check_every:
            return False
        self.last_mib = heap_mib()
        return self.last_mib > self.baseline_mib * (1.0 + self.max_growth)
