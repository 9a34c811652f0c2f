"""One Chromium per process, shared by that process's environments, with recovery.

Playwright's sync API is bound to the thread that started it, so the session is per process (and
per thread that uses it). Each environment gets its own browser context and page from it.
"""

from __future__ import annotations

import os
import signal
import threading
import uuid
from pathlib import Path

from playwright.sync_api import Browser, Playwright, sync_playwright

from scratch_gym.editor.install import find_chromium

CHROMIUM_FLAGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--mute-audio",
    "--autoplay-policy=no-user-gesture-required",
    "--disable-renderer-backgrounding",
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
    # Re-raster whole tiles: partial raster leaves anti-aliased edges one level off a full paint,
    # and reset screenshots must be identical.
    "--disable-partial-raster",
)


class BrowserSession:
    """A Chromium launched through Playwright; relaunched when it died."""

    def __init__(self, headless: bool = True) -> None:
        self.headless = headless
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        self._marker = f"--scratch-gym-session={uuid.uuid4().hex}"
        self._users = 0

    @property
    def browser(self) -> Browser:
        """The running browser, launched (again) if needed."""
        if self._browser is None or not self._browser.is_connected():
            self._launch()
        assert self._browser is not None
        return self._browser

    def _launch(self) -> None:
        if self._playwright is None:
            self._playwright = _acquire_playwright()
        if self._browser is not None:
            self._kill_processes()  # a half-dead browser must not linger
        self._marker = f"--scratch-gym-session={uuid.uuid4().hex}"
        self._browser = self._playwright.chromium.launch(
            executable_path=find_chromium(),
            headless=self.headless,
            args=[*CHROMIUM_FLAGS, self._marker],
        )

    def browser_connected(self) -> bool:
        return self._browser is not None and self._browser.is_connected()

    def users(self) -> int:
        """How many pages hold the browser now."""
        return self._users

    def acquire(self) -> Browser:
        self._users += 1
        return self.browser

    def release(self) -> None:
        """One environment is done with the browser; the last one closes it."""
        self._users = max(0, self._users - 1)
        if self._users == 0:
            self.shutdown()

    def shutdown(self) -> None:
        """Close the browser and Playwright; no Chromium process of this session remains."""
        if self._browser is not None:
            try:
                self._browser.close()
            except Exception:
                pass
            self._kill_processes()
            self._browser = None
        if self._playwright is not None:
            _release_playwright()
            self._playwright = None

    # -- processes -------------------------------------------------------------------------------
    def main_pid(self) -> int | None:
        """PID of this session's Chromium browser process, found by its marker flag."""
        for pid, cmd in _processes():
            if self._marker in cmd and "--type=" not in cmd:
                return pid
        return None

    def pids(self) -> list[int]:
        """The browser process and all its descendants (renderers, GPU, utility processes)."""
        root = self.main_pid()
        return [] if root is None else descendants(root)

    def _kill_processes(self) -> None:
        for pid in self.pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


def descendants(root: int) -> list[int]:
    """``root`` and every process below it, from the parent links in /proc."""
    children: dict[int, list[int]] = {}
    for pid in _all_pids():
        ppid = _ppid(pid)
        if ppid is not None:
            children.setdefault(ppid, []).append(pid)
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def _all_pids() -> list[int]:
    return [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()]


def proc_stat(pid: int) -> tuple[str, list[str]] | None:
    """A process's name and its /proc stat fields from the third (state) on; None when it has
    ended. The name is read between the outer parentheses: it may hold spaces and ")"."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat[stat.index("(") + 1 : stat.rindex(")")], stat[stat.rindex(")") + 2 :].split()


def _ppid(pid: int) -> int | None:
    stat = proc_stat(pid)
    return None if stat is None else int(stat[1][1])


def _processes() -> list[tuple[int, str]]:
    out = []
    for pid in _all_pids():
        try:
            cmd = (
                Path(f"/proc/{pid}/cmdline")
                .read_bytes()
                .replace(b"\0", b" ")
                .decode(errors="replace")
            )
        except OSError:
            continue
        out.append((pid, cmd))
    return out


def pss_mib(pids: list[int]) -> float:
    """Proportional set size of the given processes, in MiB (from /proc/PID/smaps_rollup)."""
    total_kib = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total_kib += int(line.split()[1])
                    break
        except OSError:
            continue
    return total_kib / 1024


_local = threading.local()


def _acquire_playwright() -> Playwright:
    """The thread's Playwright driver, shared by its sessions (Playwright's sync API allows only
    one per thread); started on first use."""
    if getattr(_local, "playwright", None) is None:
        _local.playwright = sync_playwright().start()
        _local.playwright_users = 0
    _local.playwright_users += 1
    return _local.playwright


def _release_playwright() -> None:
    """One session is done with the driver; the last one stops it."""
    _local.playwright_users -= 1
    if _local.playwright_users <= 0 and _local.playwright is not None:
        try:
            _local.playwright.stop()
        except Exception:
            pass
        _local.playwright = None


def shared_session() -> BrowserSession:
    """The browser session of this process (and thread)."""
    session = getattr(_local, "session", None)
    if session is None:
        session = _local.session = BrowserSession()
    return session
