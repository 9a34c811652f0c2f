"""What each action route does to a session's page, on the page's worker thread.

Every function takes the page and the request and returns the answer's JSON. Pointer paths
follow scratch-bench-api's: a move of ``duration`` s is ``max(10, duration * 30)`` steps; a drag
presses at the start, moves so to the end and releases.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Callable
from typing import Any

from scratch_gym.editor.page import MOUSE_BUTTONS, EditorPage, PageDeadError
from scratch_gym.serve import envelope
from scratch_gym.serve.elements import elements_batch
from scratch_gym.serve.keys import normalize_key, unknown_key
from scratch_gym.serve.request_bodies import (
    ClickAction,
    DragAndDropAction,
    HotkeyAction,
    KeyAction,
    MoveToAction,
    ScrollAction,
    TypeAction,
    args_of,
)

SCROLL_DIRECTIONS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


DRAG_DURATION = 0.5  # their DragAndDropAction's default, which their drag runner sends


def steps_for(duration: float) -> int:
    """Pointer moves for a motion of ``duration`` seconds (30 per second, at least 10)."""
    return max(10, int(duration * 30)) if duration > 0 else 1


def their_drag(
    page: EditorPage,
    start: tuple[float, float],
    end: tuple[float, float],
    duration: float = DRAG_DURATION,
) -> None:
    """Their drag's pointer path: press at ``start``, ``steps_for(duration)`` moves on the
    straight line to ``end``, release. (Blockly snaps on every move: where the last moves pass
    decides a drop as much as where it ends; see :mod:`scratch_gym.serve.scripted_drag`.)"""
    page.mouse_move(*start)
    page.mouse_down()
    page.mouse_move(*end, steps=steps_for(duration))
    page.mouse_up()


class Action:
    """Runs one action and wraps it in the envelope: a failure of the input itself is an
    ``ACTION_EXECUTION_ERROR`` answer, a dead page too (the session's other requests answer the
    same until it is deleted), never an exception that reaches another session."""

    def __init__(self, api: str, session_id: str, requested: dict[str, Any]) -> None:
        self.api = api
        self.session_id = session_id
        self.requested = requested
        self.started = time.perf_counter()

    def ok(self, executed: dict[str, Any], data: dict[str, Any] | None = None) -> dict[str, Any]:
        return envelope.ok(self.api, self.requested, executed, self.session_id, self.started, data)

    def failed(
        self, executed: dict[str, Any], code: str, message: str, error: str | None = None
    ) -> dict[str, Any]:
        details = {"error": error} if error is not None else None
        return envelope.failed(
            self.api, self.requested, executed, self.session_id, self.started, code, message,
            details,
        )  # fmt: skip

    def run(self, executed: dict[str, Any], what: str, fn: Callable[[], Any]) -> dict[str, Any]:
        try:
            fn()
        except (PageDeadError, ValueError) as exc:
            return self.failed(
                executed, "ACTION_EXECUTION_ERROR", f"{what} action failed", str(exc)
            )
        return self.ok(executed)


def click(page: EditorPage, sid: str, a: ClickAction, clicks: int = 1) -> dict[str, Any]:
    api = "double_click" if clicks == 2 else "click"
    act = Action(api, sid, args_of(a))
    executed = {"x": a.x, "y": a.y, "button": a.button}
    if a.button not in MOUSE_BUTTONS:
        message = f"Unsupported button: {a.button} (allowed: {', '.join(MOUSE_BUTTONS)})"
        return act.failed(executed, "INVALID_ARG", message)
    what = "Double click" if clicks == 2 else "Click"
    return act.run(executed, what, lambda: page.click(a.x, a.y, clicks=clicks, button=a.button))


def move_to(page: EditorPage, sid: str, a: MoveToAction) -> dict[str, Any]:
    act = Action("move_to", sid, args_of(a))
    executed = {"x": a.x, "y": a.y, "duration": a.duration}
    return act.run(executed, "Move", lambda: page.mouse_move(a.x, a.y, steps=steps_for(a.duration)))


def drag_and_drop(page: EditorPage, sid: str, a: DragAndDropAction) -> dict[str, Any]:
    act = Action("drag_and_drop", sid, args_of(a))
    executed = {k: getattr(a, k) for k in ("start_x", "start_y", "end_x", "end_y", "duration")}

    start, end = (a.start_x, a.start_y), (a.end_x, a.end_y)
    return act.run(executed, "Drag and drop", lambda: their_drag(page, start, end, a.duration))


def scroll(page: EditorPage, sid: str, a: ScrollAction) -> dict[str, Any]:
    act = Action("scroll", sid, args_of(a))
    executed: dict[str, Any] = {"direction": a.direction, "amount": a.amount}
    executed.update({k: v for k, v in (("x", a.x), ("y", a.y)) if v is not None})
    if a.direction not in SCROLL_DIRECTIONS:
        return act.failed(executed, "INVALID_ARG", f"Unsupported scroll direction: {a.direction}")
    ux, uy = SCROLL_DIRECTIONS[a.direction]

    def wheel() -> None:
        if a.x is not None and a.y is not None:
            page.mouse_move(a.x, a.y)
        page.wheel(ux * a.amount, uy * a.amount)

    return act.run(executed, "Scroll", wheel)


def type_text(page: EditorPage, sid: str, a: TypeAction) -> dict[str, Any]:
    act = Action("type", sid, args_of(a))
    return act.run({"text": a.text}, "Type", lambda: page.type_text(a.text))


KEY_APIS: dict[str, tuple[str, str]] = {
    "key": ("Key", "press"),
    "hold_key": ("Hold key", "key_down"),
    "release_key": ("Release key", "key_up"),
}


def key(page: EditorPage, sid: str, api: str, a: KeyAction) -> dict[str, Any]:
    """``key`` (press and release), ``hold_key`` (down) or ``release_key`` (up)."""
    act = Action(api, sid, args_of(a))
    name = normalize_key(a.key)
    executed = {"key": name}
    what, method = KEY_APIS[api]
    problem = unknown_key(name)
    if problem:
        return act.failed(executed, "INVALID_ARG", f"{what} action failed", problem)
    return act.run(executed, what, lambda: getattr(page, method)(name))


def hotkey(page: EditorPage, sid: str, a: HotkeyAction) -> dict[str, Any]:
    act = Action("hotkey", sid, args_of(a))
    names = [normalize_key(k) for k in a.keys]
    executed = {"keys": names}
    if not names:
        return act.failed(executed, "INVALID_ARG", "Hotkey action failed: keys must not be empty")
    problems = [p for p in map(unknown_key, names) if p]
    if problems:
        return act.failed(executed, "INVALID_ARG", "Hotkey action failed", problems[0])

    def chord() -> None:
        for name in names[:-1]:
            page.key_down(name)
        page.press(names[-1])
        for name in reversed(names[:-1]):
            page.key_up(name)

    return act.run(executed, "Hotkey", chord)


def screenshot(page: EditorPage) -> dict[str, Any]:
    return {
        "screenshot": base64.b64encode(page.screenshot_png()).decode("ascii"),
        "format": "base64",
    }


def elements(page: EditorPage, selectors: str) -> dict[str, Any]:
    started = time.perf_counter()
    out = elements_batch(page.bridge.elements_list(), selectors)
    out["elapsed_time"] = time.perf_counter() - started
    return out


def toggle_stage(page: EditorPage) -> dict[str, Any]:
    """Their runner's "Switch to small stage" click: the small stage, whatever it was."""
    size = page.stage_size("small")
    return {
        "success": True,
        "message": "Stage toggle clicked successfully",
        "selector_used": 'button[title*="Switch to small stage"]',
        "current_state": {
            "title": "Switch to small stage",
            "aria_label": "",
            "pressed": size == "small",
        },
    }


def load_project(page: EditorPage, data: bytes, name: str) -> dict[str, Any]:
    page.load_project(data)
    page.settle()
    page.start_vm()
    details = {"ok": True, "url": f"/static/{name}"}
    return {"status": "success", "message": f"loaded {details['url']}", "details": details}


def export_project(page: EditorPage, output_name: str) -> dict[str, Any]:
    data = page.export_sb3()
    return {
        "status": "success",
        "filename": output_name,
        "size": len(data),
        "data_base64": base64.b64encode(data).decode("ascii"),
    }
