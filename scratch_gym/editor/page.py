"""EditorPage: one browser context and page hosting the editor, and the only place that talks to it.

Actions and observations use this class, never Playwright directly. Every JavaScript call goes
through :meth:`EditorPage.call`, which passes a bridge function name and JSON arguments; code
outside ``editor/`` calls the typed methods of :attr:`EditorPage.bridge` (``editor/bridge.py``)
instead of naming functions.
"""

from __future__ import annotations

import base64
import io
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import numpy as np
from PIL import Image
from playwright.sync_api import BrowserContext, CDPSession, Page, Route
from playwright.sync_api import Error as PlaywrightError

from scratch_gym.editor.bridge import Bridge
from scratch_gym.editor.browser import BrowserSession, shared_session
from scratch_gym.editor.memory import HeapGrowthGuard
from scratch_gym.editor.server import shared_server
from scratch_gym.program.projects import empty_project

VIEWPORT = (1280, 720)
NEUTRAL_POINT = (700.0, 30.0)  # empty menu-bar space: hovering or clicking it changes nothing
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]", "::1"})
LOCAL_SCHEMES = frozenset({"data", "blob", "about"})
# The requests that reach ``_route``: every URL except the loopback's and the local schemes'. The
# pattern is matched by Playwright's driver, so the editor's own files (30 per page load) are not
# held up by a round trip to Python each (measured: its 12 bridge scripts arrived after ~0.7 s
# each with "**/*", after 0.09-0.23 s with this pattern; the page's total load time is dominated
# by running the editor's JavaScript, about 8 s either way on this machine).
NON_LOCAL_URL = re.compile(
    r"^(?!(?:data:|blob:|about:|(?:https?|wss?)://(?:127\.0\.0\.1|localhost|\[::1\])(?:[:/?#]|$)))"
)


# A bridge call that the watchdog can end (``call_within``): it resolves with the call's result, or
# with a timeout result when ``_ABORT_CALLS`` runs (after the page's stuck JavaScript was stopped).
_ABORTABLE_CALL = """([name, args]) => new Promise(resolve => {
  const aborts = window.__scratchGymAborts || (window.__scratchGymAborts = new Set());
  const abort = () => resolve({ok: false, kind: 'timeout', error: 'stopped by the watchdog'});
  aborts.add(abort);
  ScratchGym.call(name, args).then(r => { aborts.delete(abort); resolve(r); });
})"""
_ABORT_CALLS = """(() => {
  const aborts = window.__scratchGymAborts;
  if (aborts) { for (const abort of Array.from(aborts)) abort(); aborts.clear(); }
  return true;
})()"""


class BridgeError(RuntimeError):
    """A bridge function failed in the page; ``kind`` names the failure."""

    def __init__(self, kind: str, message: str, details: Any = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.details = details

    def __reduce__(self) -> tuple[Any, ...]:
        """Picklable (a worker process's error reaches its parent) whatever a subclass's
        ``__init__`` takes."""
        return (_restore_error, (type(self), self.args, dict(self.__dict__)))


def _restore_error(cls: type[BridgeError], args: tuple, state: dict[str, Any]) -> BridgeError:
    error = cls.__new__(cls)
    RuntimeError.__init__(error, *args)
    error.__dict__.update(state)
    return error


class CallTimeout(BridgeError):
    """A bridge call ran past its time limit and was stopped (``EditorPage.call_within``)."""

    def __init__(self, name: str, timeout_s: float) -> None:
        super().__init__("timeout", f"bridge call {name} did not finish within {timeout_s:g} s")
        self.name = name
        self.timeout_s = timeout_s


class PageDeadError(RuntimeError):
    """The page or the browser behind it is gone (crash, kill); reset() recovers."""


@dataclass
class RequestLog:
    """Requests the page tried to make to non-local addresses.

    ``blocked``: attempts the request routing aborted. ``external``: non-local requests that
    completed (seen by the browser's own network events, independently of the routing): any
    entry there is a request that left the machine.
    """

    blocked: list[str] = field(default_factory=list)
    external: list[str] = field(default_factory=list)


# Per browser session (by id), at most one closed EditorPage whose context is kept open, the
# editor loaded, for the session's next EditorPage to take over (see ``EditorPage.close``).
_SPARES: dict[int, EditorPage] = {}


class EditorPage:
    """The editor in its own browser context: open, call bridge functions, input, screenshots.

    A closed page whose browser stays up (another page holds it) is kept as its session's spare,
    its project emptied, and the next page of the session opens by taking it over (about 0.3 s
    instead of loading the editor again, 2.5 s or more): a new environment is then the next
    episode on an existing page, which every reset already makes a clean start. A page whose
    editor settings an agent changed, or that loaded an extension or turned turbo mode on, is
    never kept. ``reuse=False`` always loads a new page and never leaves one behind.
    """

    def __init__(
        self,
        session: BrowserSession | None = None,
        page_timeout_s: float = 60.0,
        reuse: bool = True,
    ) -> None:
        self.session = session or shared_session()
        self.page_timeout_s = page_timeout_s
        self.reuse = reuse
        self.requests = RequestLog()
        self._context: BrowserContext | None = None
        self._page: Page | None = None
        self._cdp: CDPSession | None = None
        self._crashed = False
        self._acquired = False
        self.memory_guard = HeapGrowthGuard()
        self.refreshes = 0
        self._defer_flyout = False
        # Where a raw DevTools drag (drag_path) left the pointer, while Playwright's own idea of
        # it is stale; None when Playwright's is right.
        self._pointer_at: tuple[float, float] | None = None
        self.bridge = Bridge(self)  # the typed bridge calls (editor/bridge.py)

    # -- lifecycle ------------------------------------------------------------------------------
    def open(self, fresh: bool = False) -> EditorPage:
        """Create the context and page and load the editor (waits until the bridge is ready), or
        take over the session's spare page (unless ``fresh`` or ``reuse`` is off)."""
        if not self._acquired:
            self.session.acquire()
            self._acquired = True
        if self.reuse and not fresh and self._take_spare():
            return self
        server = shared_server()
        self._context = self.session.browser.new_context(
            viewport={"width": VIEWPORT[0], "height": VIEWPORT[1]},
            device_scale_factor=1,
            locale="en-US",
            service_workers="block",
        )
        self._context.route(NON_LOCAL_URL, self._route)
        page = self._page = self._context.new_page()
        self._crashed = False
        self._pointer_at = None  # a new page's pointer is Playwright's
        page.on("crash", self._on_crash)
        page.on("dialog", lambda d: d.dismiss())
        page.on("requestfinished", self._finished)
        page.set_default_timeout(self.page_timeout_s * 1000)
        page.goto(server.page_url, wait_until="load")
        page.evaluate("ScratchGym.ready")
        self._cdp = self._context.new_cdp_session(page)
        self.memory_guard.page_opened()
        if self._defer_flyout:
            self.call("toolbox.defer", {"enabled": True})
        return self

    def _on_crash(self, _page: Page) -> None:
        self._crashed = True

    def _take_spare(self) -> bool:
        """Take over the session's spare page: its context, page and event handlers, its request
        log and heap guard (they belong to the page), with the view reset and the menus closed
        (``_park`` emptied its project and checked its settings). False (the spare closed) when
        there is none or its browser died."""
        spare = _SPARES.pop(id(self.session), None)
        if spare is None:
            return False
        context, page, cdp = spare._context, spare._page, spare._cdp
        spare._context = spare._page = spare._cdp = None
        if context is None or page is None or cdp is None:
            return False
        try:
            context.unroute(NON_LOCAL_URL, spare._route)
            page.remove_listener("crash", spare._on_crash)
            page.remove_listener("requestfinished", spare._finished)
            self._context, self._page, self._cdp = context, page, cdp
            self._crashed = spare._crashed
            self._context.route(NON_LOCAL_URL, self._route)
            page.on("crash", self._on_crash)
            page.on("requestfinished", self._finished)
            self.requests, self.memory_guard = spare.requests, spare.memory_guard
            self._pointer_at = spare._pointer_at
            if not self.is_alive():  # its browser died while it waited
                raise PageDeadError("the spare page is gone")
            self.call("toolbox.defer", {"enabled": self._defer_flyout})
            self.call("view.reset")  # the project was emptied and the settings checked by _park
            self.dismiss_menus()
            self.start_vm()  # it rested while kept (``rest``); a new page's frame loop runs
            return True
        except (PlaywrightError, PageDeadError, BridgeError):
            self._close_context()
            self.requests, self.memory_guard = RequestLog(), HeapGrowthGuard()
            return False

    def _park(self) -> bool:
        """At close: keep this page as its session's spare, if another page keeps the browser up,
        no spare is kept yet and the page is alive with its editor settings unchanged and no
        extension loaded nor turbo mode on (a new page has neither). Its project is emptied (no
        script keeps running) and its stage made large, as on a new page."""
        if not (self.reuse and self._acquired and self.session.users() > 1):
            return False
        if id(self.session) in _SPARES or not self.is_alive():
            return False
        try:
            if self.call("editor.settings")["changed"] or self.call("editor.leftovers"):
                return False
            self.load_project(empty_project())
            self.stage_size("large")  # as a new page has it
            self.rest()
        except (PlaywrightError, PageDeadError, BridgeError):
            return False
        _SPARES[id(self.session)] = self
        return True

    def _route(self, route: Route) -> None:
        url = route.request.url
        if _is_local(url):
            route.continue_()
        else:
            self.requests.blocked.append(url)
            route.abort("blockedbyclient")

    def _finished(self, request: Any) -> None:
        if not _is_local(request.url):
            self.requests.external.append(request.url)

    def is_alive(self) -> bool:
        """True when the page can be used: browser connected, page open, not crashed, bridge there."""
        if self._page is None or self._crashed or self._page.is_closed():
            return False
        if not self.session.browser_connected():
            return False
        try:
            return bool(self._page.evaluate("Boolean(window.ScratchGym && ScratchGym.vm)"))
        except PlaywrightError:
            return False

    def recover(self) -> None:
        """Replace a dead page (or browser) by a fresh one."""
        self._close_context()
        self.open(fresh=True)

    def heap_mib(self) -> float:
        """The page's JavaScript heap in use after a garbage collection (MiB)."""
        if self._cdp is None:
            raise PageDeadError("the editor page is not open")
        self._cdp.send("HeapProfiler.collectGarbage")
        return self._cdp.send("Runtime.getHeapUsage")["usedSize"] / 2**20

    def refresh_if_grown(self) -> bool:
        """At a reset: replace the page by a fresh one if its heap grew too much (see memory.py)."""
        if self._page is None or not self.memory_guard.should_refresh(self.heap_mib):
            return False
        self.recover()
        self.refreshes += 1
        return True

    def refresh_if_settings_changed(self) -> bool:
        """At a reset: replace the page by a fresh one if an agent changed the editor's settings
        (language, color mode, theme) from its menu bar; a new page has the defaults."""
        if self._page is None or not self.call("editor.settings")["changed"]:
            return False
        self.recover()
        self.refreshes += 1
        return True

    def defer_flyout(self, enabled: bool) -> None:
        """Rebuild the flyout only when something looks at it (screenshots, input, element lists),
        not on every target switch or new variable; for text observations (bridge/toolbox.js).
        Kept for this page's replacements (refresh, recovery)."""
        if enabled != self._defer_flyout and self._page is not None:
            self.call("toolbox.defer", {"enabled": enabled})
        self._defer_flyout = enabled

    def _show_flyout(self) -> None:
        """Before pixels or input: rebuild a deferred flyout."""
        if self._defer_flyout:
            self.call("toolbox.flush")

    def close(self) -> None:
        """Close the context, or keep it as the session's spare (see the class); the last page
        of the process also closes the browser. Idempotent."""
        if not self._park():
            self._close_context()
        if self._acquired:
            self._acquired = False
            self.session.release()
            if self.session.users() == 0:
                _SPARES.pop(id(self.session), None)  # closed with the browser

    def _close_context(self) -> None:
        if _SPARES.get(id(self.session)) is self:
            del _SPARES[id(self.session)]
        if self._context is not None:
            try:
                self._context.close()
            except PlaywrightError:
                pass
        self._context = self._page = self._cdp = None

    @property
    def page(self) -> Page:
        if self._page is None:
            raise PageDeadError("the editor page is not open")
        return self._page

    # -- bridge ---------------------------------------------------------------------------------
    def call(self, name: str, args: dict[str, Any] | None = None) -> Any:
        """Call the bridge function ``name`` with JSON ``args``; raise BridgeError on failure.

        The transport under :attr:`bridge`: only ``editor/`` names bridge functions."""
        try:
            result = self.page.evaluate(
                "([name, args]) => ScratchGym.call(name, args)", [name, args or {}]
            )
        except PlaywrightError as exc:
            raise PageDeadError(f"bridge call {name} failed: {exc}") from exc
        if not result["ok"]:
            raise BridgeError(result["kind"], result["error"], result.get("details"))
        return result["value"]

    def call_within(self, name: str, args: dict[str, Any] | None, timeout_s: float) -> Any:
        """Like :meth:`call`, but a call still running after ``timeout_s`` is stopped.

        The page's JavaScript is terminated where it is (even inside a synchronous loop that never
        yields) and :class:`CallTimeout` is raised; the page itself stays usable, but state the
        stopped call was changing is left half-done, so the caller repairs it (``eval.recover``).
        The timer runs on Playwright's event loop, outside the busy page.
        """
        page = self.page
        cdp = self._cdp
        if cdp is None:
            raise PageDeadError("the editor page has no DevTools session to stop its JavaScript")
        loop = page._loop  # Playwright's event loop: it runs while the call below waits
        fired: list[bool] = []

        def fire() -> None:
            fired.append(True)
            loop.create_task(_stop_javascript(cdp))

        timer = loop.call_later(max(0.001, timeout_s), fire)
        try:
            result = page.evaluate(_ABORTABLE_CALL, [name, args or {}])
        except PlaywrightError as exc:
            raise PageDeadError(f"bridge call {name} failed: {exc}") from exc
        finally:
            timer.cancel()
        if fired:
            raise CallTimeout(name, timeout_s)
        if not result["ok"]:
            raise BridgeError(result["kind"], result["error"], result.get("details"))
        return result["value"]

    # -- project --------------------------------------------------------------------------------
    def load_project(self, project: dict | str | bytes) -> dict:
        """Load a project (project.json as dict/str, or .sb3 bytes) into the editor's VM."""
        if isinstance(project, bytes):
            args = {"sb3_base64": base64.b64encode(project).decode("ascii")}
        else:
            args = {"json": project if isinstance(project, str) else json.dumps(project)}
        return self.call("project.load", args)

    def project_json(self) -> dict:
        """The VM's project as JSON (``Bridge.project_json``)."""
        return self.bridge.project_json()

    def summary(self) -> dict:
        return self.call("project.summary")

    def settle(
        self,
        timeout_ms: int = 3000,
        stable_frames: int = 2,
        stop_vm: bool = False,
        from_call: bool = False,
    ) -> dict:
        """Wait until the editor is still (see ``editor.settle`` in bridge/workspace.js).

        With ``stop_vm`` the VM's frame loop is stopped afterwards when no script is running.
        With ``from_call`` the stable frames count from the call itself (one frame sooner): for
        an environment step, whose input events the page has already handled. Feasible-region
        probes keep the full count: with it, a brute-force scan across dc-01's stored region
        edge found 2-3 fewer start points than the region the probes stored.
        """
        return self.call(
            "editor.settle",
            {
                "timeout_ms": timeout_ms,
                "stable_frames": stable_frames,
                "stop_vm": stop_vm,
                "from_call": from_call,
            },
        )

    def start_vm(self) -> None:
        """Run the VM's frame loop (scripts the agent starts need it)."""
        self.call("vm.start")

    def rest(self) -> None:
        """Stop the VM's frame loop, unless a script runs, for a page that waits unused (a kept
        spare page, a server's warm page): the loop redraws the stage 30 times a second, so an
        idle new page kept a third of a core busy (measured on 7 December 2026; about 0% once
        stopped). ``start_vm`` starts it again."""
        self.settle(stop_vm=True)

    # -- pixels ---------------------------------------------------------------------------------
    def screenshot_png(self, scale: float = 1.0) -> bytes:
        """A PNG of the viewport, taken over CDP (faster than Playwright's screenshot).

        ``scale`` < 1 lets the compositor downscale (cheaper than capturing full size).
        """
        if self._cdp is None:
            raise PageDeadError("the editor page is not open")
        self._show_flyout()
        params: dict[str, Any] = {"format": "png", "optimizeForSpeed": True}
        if scale != 1.0:
            w, h = VIEWPORT
            params["clip"] = {"x": 0, "y": 0, "width": w, "height": h, "scale": scale}
        try:
            shot = self._cdp.send("Page.captureScreenshot", params)
        except PlaywrightError as exc:
            raise PageDeadError(f"screenshot failed: {exc}") from exc
        return base64.b64decode(shot["data"])

    def screenshot(self, size: tuple[int, int] | None = None) -> np.ndarray:
        """The viewport as RGB uint8, shape (720, 1280, 3) or (height, width, 3) for size=(w, h)."""
        w, h = size or VIEWPORT
        scale = w / VIEWPORT[0]
        with Image.open(io.BytesIO(self.screenshot_png(scale))) as img:
            if img.mode != "RGB":  # Chromium's PNGs are RGB: no conversion (a copy) needed
                img = img.convert("RGB")
            if img.size != (w, h):
                img = img.resize((w, h), Image.Resampling.BILINEAR)
            return np.asarray(img)

    # -- input ----------------------------------------------------------------------------------
    def _input(
        self, action: Callable[[Page], Any], from_pointer: bool = False, moves_pointer: bool = False
    ) -> Any:
        """Run one input call (Playwright's, or raw DevTools input); a dead page or browser
        becomes PageDeadError. One that starts where Playwright last put the pointer
        (``from_pointer``: a press, a release, a wheel turn, a move in steps) first brings it to
        where a raw drag left the real one; one that ends at a point it names (``moves_pointer``:
        a move, a click) makes Playwright's idea right again."""
        self._show_flyout()
        try:
            if from_pointer and self._pointer_at is not None:
                self.page.mouse.move(*self._pointer_at)
                self._pointer_at = None
            result = action(self.page)
            if moves_pointer:
                self._pointer_at = None
            return result
        except PlaywrightError as exc:
            raise PageDeadError(f"input to the editor page failed: {exc}") from exc

    def mouse_move(self, x: float, y: float, steps: int = 1) -> None:
        self._input(
            lambda p: p.mouse.move(x, y, steps=steps), from_pointer=steps > 1, moves_pointer=True
        )

    def drag_path(self, points: Sequence[tuple[float, float]]) -> None:
        """A left-button drag as raw DevTools input: press at ``points[0]``, move to each later
        point in turn, release at the last (no modifier keys held).

        The press comes with its own coordinates, so no hover move precedes it: Chromium holds
        a mouse move for the page's next frame (16.7 ms) and a press for about 1 ms, and the
        editor picks the block under the press either way (the observations stay byte-equal).
        Playwright's own idea of the pointer is left behind; the next input that starts from it
        moves there first (``_input``).
        """
        if len(points) < 2:
            raise ValueError(f"a drag path needs at least 2 points, got {len(points)}")
        if self._cdp is None:
            raise PageDeadError("the editor page is not open")
        cdp = self._cdp
        (x0, y0), (x1, y1) = points[0], points[-1]
        events = [{"type": "mousePressed", "x": x0, "y": y0, "buttons": 1, "clickCount": 1}]
        events += [{"type": "mouseMoved", "x": x, "y": y, "buttons": 1} for x, y in points[1:]]
        events.append({"type": "mouseReleased", "x": x1, "y": y1, "buttons": 0, "clickCount": 1})

        def send(_: Page) -> None:
            for event in events:
                cdp.send("Input.dispatchMouseEvent", {**event, "button": "left"})

        try:
            self._input(send)
        finally:
            self._pointer_at = (float(x1), float(y1))

    def dismiss_menus(self) -> None:
        """Close what a click elsewhere closes (the menu bar's menus, which keep their open state
        out of the editor's store; a text selection) with a real click on empty menu-bar space.
        The pointer stays there, hovering nothing."""
        self.mouse_move(*NEUTRAL_POINT)
        self.mouse_down()
        self.mouse_up()

    def mouse_down(self, button: str = "left") -> None:
        self._input(lambda p: p.mouse.down(button=_button(button)), from_pointer=True)

    def mouse_up(self, button: str = "left") -> None:
        self._input(lambda p: p.mouse.up(button=_button(button)), from_pointer=True)

    def click(self, x: float, y: float, clicks: int = 1, button: str = "left") -> None:
        """Click (``clicks`` = 2: double click) with ``button``: left, right or middle."""
        self._input(
            lambda p: p.mouse.click(x, y, click_count=clicks, button=_button(button)),
            moves_pointer=True,
        )

    def wheel(self, dx: float, dy: float) -> None:
        self._input(lambda p: p.mouse.wheel(dx, dy), from_pointer=True)

    def type_text(self, text: str) -> None:
        """Type ``text`` as key presses (what a user's typing does in inputs and fields)."""
        self._input(lambda p: p.keyboard.type(text))

    def press(self, key: str) -> None:
        self._input(lambda p: p.keyboard.press(key))

    def key_down(self, key: str) -> None:
        """Hold ``key`` down (a Playwright key name) until :meth:`key_up`."""
        self._input(lambda p: p.keyboard.down(key))

    def key_up(self, key: str) -> None:
        self._input(lambda p: p.keyboard.up(key))

    def export_sb3(self) -> bytes:
        """The editor's project as an .sb3 file."""
        return self.bridge.project_sb3()

    def stage_size(self, size: str | None = None) -> str:
        """The GUI's stage size, "large" or "small"; set first when ``size`` is given."""
        return self.bridge.view_stage_size(size)


async def _stop_javascript(cdp: CDPSession) -> None:
    """Stop the JavaScript running in the page now (DevTools interrupts a busy page), then end
    the pending bridge calls. A stop request that arrives when nothing runs stops the next piece
    of JavaScript instead, possibly the ending itself: that is then sent again."""
    session = cdp._impl_obj  # the async session: this runs on Playwright's loop, mid-call
    try:
        await session.send("Runtime.terminateExecution", None, None)
    except Exception:  # noqa: BLE001 - the page may be gone; the call then fails by itself
        return
    for _ in range(2):
        try:
            reply = await session.send(
                "Runtime.evaluate", {"expression": _ABORT_CALLS, "returnByValue": True}, None
            )
        except Exception:  # noqa: BLE001
            return
        if not reply.get("exceptionDetails"):
            return


MOUSE_BUTTONS = ("left", "right", "middle")


def _button(button: str) -> Any:
    if button not in MOUSE_BUTTONS:
        raise ValueError(f"unknown mouse button {button!r} (allowed: {', '.join(MOUSE_BUTTONS)})")
    return button


def _is_local(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in LOCAL_SCHEMES or parts.hostname in LOCAL_HOSTS
