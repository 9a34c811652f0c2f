"""Primitive mode: mouse and keyboard actions on the 1280x720 editor screen.

``PRIMITIVE_ACTIONS`` is the single source of truth for the action types, their fields and their
meaning: the action space, validation, the docs' table (docs/actions.md) and agent prompts are generated from it.
Points are viewport pixels, origin top-left, x to the right, y down.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from gymnasium import spaces

from scratch_gym.actions.errors import ActionError
from scratch_gym.editor.page import VIEWPORT, EditorPage
from scratch_gym.spaces import UnicodeText


@dataclass(frozen=True)
class ActionType:
    name: str
    fields: tuple[str, ...]
    description: str


PRIMITIVE_ACTIONS: tuple[ActionType, ...] = (
    ActionType("click", ("start",), "Left click at `start`."),
    ActionType("double_click", ("start",), "Double click at `start`."),
    ActionType(
        "drag",
        ("start", "end"),
        "Press the left button at `start`, move past the drag threshold and on to `end`, release.",
    ),
    ActionType("type", ("text",), "Type `text` as key presses into whatever has focus."),
    ActionType("key", ("keys",), "Press one key, e.g. `Enter`, `Escape`, `Backspace`, `ArrowUp`."),
    ActionType(
        "hotkey", ("keys",), "Press a key combination, keys joined by `+`, e.g. `Control+a`."
    ),
    ActionType(
        "scroll",
        ("start", "scroll"),
        "Move the mouse to `start` and turn the wheel by `scroll` = (dx, dy) pixels.",
    ),
    ActionType("done", (), "Declare the task complete (ends the episode)."),
    ActionType("failed", (), "Declare the task impossible (ends the episode)."),
)
ACTION_NAMES: tuple[str, ...] = tuple(a.name for a in PRIMITIVE_ACTIONS)
_BY_NAME = {a.name: a for a in PRIMITIVE_ACTIONS}

FIELD_DOCS: dict[str, str] = {
    "action_type": f"index into {list(ACTION_NAMES)} (the name as a string is accepted too)",
    "start": "(x, y) viewport pixels; outside points are clipped to the screen and flagged",
    "end": "(x, y) viewport pixels, for `drag`",
    "text": "text for `type` (any Unicode, up to 10,000 characters)",
    "keys": "key name or `+`-joined combination for `key` / `hotkey` (Playwright key names)",
    "scroll": "(dx, dy) wheel pixels for `scroll`, each within +-5000",
    "element": "index into the observation's element list: used as `start` (its click point); -1 or absent = use `start`",
    "end_element": "index into the element list used as `end` of a `drag`; -1 or absent = use `end`",
}
MAX_ELEMENT_INDEX = 9999
MAX_TEXT = 10_000
MAX_SCROLL = 5000.0
DRAG_THRESHOLD_PX = 6.0  # past Blockly's drag radius (3 px in scratch-blocks)
DRAG_STEPS = 4


def primitive_action_space() -> spaces.Dict:
    """The LLM-facing primitive action space (a ``Dict``)."""
    w, h = VIEWPORT
    point = spaces.Box(
        low=np.array([0, 0], np.float32),
        high=np.array([w - 1, h - 1], np.float32),
        dtype=np.float32,
    )
    return spaces.Dict(
        {
            "action_type": spaces.Discrete(len(ACTION_NAMES)),
            "start": point,
            "end": point,
            "text": UnicodeText(MAX_TEXT),
            "keys": UnicodeText(100),
            "scroll": spaces.Box(-MAX_SCROLL, MAX_SCROLL, shape=(2,), dtype=np.float32),
            "element": spaces.Discrete(MAX_ELEMENT_INDEX + 2, start=-1),
            "end_element": spaces.Discrete(MAX_ELEMENT_INDEX + 2, start=-1),
        }
    )


@dataclass
class PrimitiveAction:
    """A validated primitive action; points already clipped to the viewport."""

    type: str
    start: tuple[float, float] | None = None
    end: tuple[float, float] | None = None
    text: str | None = None
    keys: str | None = None
    scroll: tuple[float, float] | None = None
    clipped: list[str] = field(default_factory=list)

    def to_info(self) -> dict[str, Any]:
        """The ``executed_action`` of the step info: the action as performed, keyed as actions are
        (``action_type``, ``start``, ...), so that it can be sent again as an action. ``type`` is
        the same name under its older key, an alias kept for readers of earlier infos (actions
        accept either key)."""
        out: dict[str, Any] = {"action_type": self.type, "type": self.type}
        for name in ("start", "end", "text", "keys", "scroll"):
            value = getattr(self, name)
            if value is not None:
                out[name] = list(value) if isinstance(value, tuple) else value
        return out


def parse_primitive_action(
    action: Any, elements: Callable[[], Sequence[Any] | None] | None = None
) -> PrimitiveAction:
    """Validate an agent's action (dict of the action space, names accepted for the type).

    ``element`` / ``end_element`` (indices into the last observation's element list, read from
    ``elements()``) stand in for ``start`` / ``end``.
    """
    if not isinstance(action, Mapping):
        raise ActionError(
            f"an action must be a dict with 'action_type' and its fields, got {type(action).__name__}"
        )
    kind = _action_type(action.get("action_type", action.get("type")))
    spec = _BY_NAME[kind]
    action = _with_element_points(action, elements)
    parsed = PrimitiveAction(type=kind)
    for name in spec.fields:
        if name not in action or action[name] is None:
            raise ActionError(
                f"action '{kind}' needs the field '{name}' ({FIELD_DOCS[name]}); got fields {sorted(action)}"
            )
        value = action[name]
        if name in ("start", "end"):
            point, was_clipped = _point(name, value)
            setattr(parsed, name, point)
            if was_clipped:
                parsed.clipped.append(name)
        elif name == "scroll":
            parsed.scroll = _scroll(value)
        elif name == "text":
            parsed.text = _text(name, value, MAX_TEXT, allow_empty=True)
        elif name == "keys":
            parsed.keys = _keys(value)
    return parsed


def resolve_element(elements: Sequence[Any], index: Any) -> tuple[float, float]:
    """The click point of element ``index`` of this step's list (elements of
    :mod:`scratch_gym.observations.elements`, or their dicts: ``cx``, ``cy``); ActionError if there
    is none."""
    if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
        if isinstance(index, float) and index.is_integer():
            index = int(index)
        else:
            raise ActionError(f"element must be an integer index, got {index!r}")
    n = len(elements)
    if not 0 <= int(index) < n:
        span = f"0-{n - 1}" if n else "none"
        raise ActionError(
            f"element {int(index)} is not in this step's element list ({n} elements: {span})"
        )
    el = elements[int(index)]
    if isinstance(el, Mapping):
        return (float(el["cx"]), float(el["cy"]))
    return (float(el.cx), float(el.cy))


def _with_element_points(
    action: Mapping[str, Any], elements: Callable[[], Sequence[Any] | None] | None
) -> Mapping[str, Any]:
    """``action`` with ``element``/``end_element`` replaced by their elements' click points."""
    out = dict(action)
    for field_name, point_name in (("element", "start"), ("end_element", "end")):
        index = out.pop(field_name, None)
        if isinstance(index, np.ndarray) and index.shape == ():
            index = index.item()
        if index is None or (isinstance(index, (int, np.integer)) and int(index) == -1):
            continue
        listed = elements() if elements is not None else None
        if listed is None:
            raise ActionError(
                f"'{field_name}' needs an observation with an element list; use '{point_name}'"
            )
        out[point_name] = list(resolve_element(listed, index))
    return out


def _action_type(value: Any) -> str:
    if isinstance(value, str):
        if value in _BY_NAME:
            return value
        raise ActionError(f"unknown action type {value!r}; allowed: {', '.join(ACTION_NAMES)}")
    if isinstance(value, (bool, np.bool_)) or value is None:
        raise ActionError(
            f"'action_type' must be an index 0-{len(ACTION_NAMES) - 1} or one of {', '.join(ACTION_NAMES)}; got {value!r}"
        )
    if isinstance(value, np.ndarray) and value.shape == ():
        value = value.item()
    if isinstance(value, (int, np.integer)):
        if 0 <= int(value) < len(ACTION_NAMES):
            return ACTION_NAMES[int(value)]
        raise ActionError(
            f"action type index {int(value)} out of range 0-{len(ACTION_NAMES) - 1} ({', '.join(ACTION_NAMES)})"
        )
    raise ActionError(
        f"'action_type' must be an int or a string, got {type(value).__name__}; allowed: {', '.join(ACTION_NAMES)}"
    )


def _numbers(name: str, value: Any, n: int) -> tuple[float, ...]:
    try:
        arr = np.asarray(value, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError) as exc:
        raise ActionError(f"'{name}' must be {n} numbers, got {value!r:.80}") from exc
    if arr.size != n:
        raise ActionError(f"'{name}' must be {n} numbers, got {arr.size}")
    if not np.all(np.isfinite(arr)):
        raise ActionError(f"'{name}' must be finite numbers, got {arr.tolist()}")
    return tuple(float(v) for v in arr)


def _point(name: str, value: Any) -> tuple[tuple[float, float], bool]:
    x, y = _numbers(name, value, 2)
    w, h = VIEWPORT
    cx, cy = min(max(x, 0.0), w - 1.0), min(max(y, 0.0), h - 1.0)
    return (cx, cy), (cx, cy) != (x, y)


def _scroll(value: Any) -> tuple[float, float]:
    dx, dy = _numbers("scroll", value, 2)
    if abs(dx) > MAX_SCROLL or abs(dy) > MAX_SCROLL:
        raise ActionError(
            f"'scroll' components must be within +-{MAX_SCROLL:g}, got ({dx:g}, {dy:g})"
        )
    return dx, dy


def _text(name: str, value: Any, limit: int, allow_empty: bool) -> str:
    if not isinstance(value, str):
        raise ActionError(f"'{name}' must be a string, got {type(value).__name__}")
    if len(value) > limit:
        raise ActionError(f"'{name}' is {len(value)} characters long; at most {limit} are allowed")
    if not allow_empty and not value:
        raise ActionError(f"'{name}' must not be empty")
    return value


_MODIFIERS = {"Control", "Shift", "Alt", "Meta", "ControlOrMeta"}


def _keys(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        if not all(isinstance(k, str) for k in value):
            raise ActionError("'keys' as a list must hold key names (strings)")
        value = "+".join(value)
    keys = _text("keys", value, 100, allow_empty=False).strip()
    parts = keys.split("+") if keys != "+" else ["+"]
    if any(not p for p in parts):
        raise ActionError(
            f"'keys' {keys!r} has an empty key name; join keys with '+', e.g. Control+a"
        )
    for part in parts:
        if len(part) > 1 and part not in _MODIFIERS and not _is_named_key(part):
            raise ActionError(
                f"unknown key {part!r} in {keys!r}; use one character or a key name such as "
                "Enter, Escape, Tab, Backspace, Delete, ArrowUp, ArrowDown, ArrowLeft, ArrowRight, "
                "Home, End, PageUp, PageDown, Space, F1-F12, and modifiers Control, Shift, Alt, Meta"
            )
    return keys


_NAMED_KEYS = {
    "Enter", "Escape", "Tab", "Backspace", "Delete", "Insert", "Space", "Home", "End", "PageUp",
    "PageDown", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "CapsLock",
}  # fmt: skip


def _is_named_key(name: str) -> bool:
    return name in _NAMED_KEYS or (
        name[0] == "F" and name[1:].isdigit() and 1 <= int(name[1:]) <= 12
    )


def is_key_name(name: str) -> bool:
    """Can the editor press ``name`` as one key: one character, a modifier or a named key?"""
    return len(name) == 1 or name in _MODIFIERS or (bool(name) and _is_named_key(name))


def execute_primitive(page: EditorPage, action: PrimitiveAction) -> None:
    """Perform the action with real mouse and keyboard input (the caller waits for settle)."""
    kind = action.type
    if kind in ("click", "double_click"):
        assert action.start is not None
        page.click(*action.start, clicks=2 if kind == "double_click" else 1)
    elif kind == "drag":
        assert action.start is not None and action.end is not None
        drag(page, action.start, action.end)
    elif kind == "type":
        page.type_text(action.text or "")
    elif kind in ("key", "hotkey"):
        assert action.keys is not None
        page.press(action.keys.replace("Space", " ") if action.keys == "Space" else action.keys)
    elif kind == "scroll":
        assert action.start is not None and action.scroll is not None
        page.mouse_move(*action.start)
        page.wheel(*action.scroll)


def drag(page: EditorPage, start: tuple[float, float], end: tuple[float, float]) -> None:
    """A real drag: press at start, move past the drag threshold, ``DRAG_STEPS - 1`` equal moves
    on to the end, release there (``EditorPage.drag_path``). The points may hold any real numbers
    (numpy scalars too)."""
    x0, y0 = float(start[0]), float(start[1])
    x1, y1 = float(end[0]), float(end[1])
    dist = math.hypot(x1 - x0, y1 - y0)
    ux, uy = ((x1 - x0) / dist, (y1 - y0) / dist) if dist > 0 else (1.0, 0.0)
    xt, yt = x0 + ux * DRAG_THRESHOLD_PX, y0 + uy * DRAG_THRESHOLD_PX
    n = DRAG_STEPS - 1
    path = [(xt + (x1 - xt) * (i / n), yt + (y1 - yt) * (i / n)) for i in range(1, n + 1)]
    page.drag_path([(x0, y0), (xt, yt), *path])


def actions_markdown() -> str:
    """The docs / prompt table of primitive actions, generated from the catalogue."""
    rows = ["| index | action_type | fields | meaning |", "| --- | --- | --- | --- |"]
    for i, a in enumerate(PRIMITIVE_ACTIONS):
        rows.append(f"| {i} | `{a.name}` | {', '.join(a.fields) or '-'} | {a.description} |")
    rows.append("")
    rows.append("| field | encoding |")
    rows.append("| --- | --- |")
    rows.extend(f"| `{k}` | {v} |" for k, v in FIELD_DOCS.items())
    return "\n".join(rows)


class PrimitiveActionModel:
    """The LLM-facing primitive action model (``Dict`` action space).

    ``element`` / ``end_element`` indices refer to the element list of the latest observation
    (``use_elements``).
    """

    settle_frames = 2
    defers_flyout = False

    def __init__(self) -> None:
        self.space = primitive_action_space()
        self.element_source: Callable[[], Sequence[Any] | None] | None = None

    def use_elements(self, source: Callable[[], Sequence[Any] | None]) -> None:
        self.element_source = source

    def parse(self, raw: Any) -> PrimitiveAction:
        return parse_primitive_action(raw, self.element_source)

    def runs_scripts(self, parsed: PrimitiveAction) -> bool:
        return True  # a click on a script runs it

    def execute(self, page: EditorPage, parsed: PrimitiveAction) -> dict[str, Any]:
        execute_primitive(page, parsed)
        return {"executed_action": parsed.to_info(), "clipped": list(parsed.clipped)}

    def ends_episode(self, parsed: PrimitiveAction) -> bool:
        return parsed.type in ("done", "failed")
