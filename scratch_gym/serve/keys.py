"""Key names as agents write them (pyautogui style: ``ctrl``, ``esc``, ``pgdn``) mapped onto the
editor's key names (``Control``, ``Escape``, ``PageDown``), as scratch-bench-api accepts them."""

from __future__ import annotations

import re

from scratch_gym.actions.primitive import is_key_name

ALIASES: dict[str, str] = {
    **dict.fromkeys(("ctrl", "control"), "Control"),
    **dict.fromkeys(("cmd", "command", "meta", "win", "windows"), "Meta"),
    **dict.fromkeys(("alt", "option"), "Alt"),
    "shift": "Shift",
    **dict.fromkeys(("esc", "escape"), "Escape"),
    **dict.fromkeys(("enter", "return"), "Enter"),
    "tab": "Tab",
    **dict.fromkeys(("space", "spacebar"), "Space"),
    **dict.fromkeys(("backspace", "bksp"), "Backspace"),
    **dict.fromkeys(("delete", "del"), "Delete"),
    **dict.fromkeys(("insert", "ins"), "Insert"),
    "home": "Home",
    "end": "End",
    **dict.fromkeys(("pageup", "pgup"), "PageUp"),
    **dict.fromkeys(("pagedown", "pgdn"), "PageDown"),
    **{d: f"Arrow{d.title()}" for d in ("left", "right", "up", "down")},
    **{f"arrow{d}": f"Arrow{d.title()}" for d in ("left", "right", "up", "down")},
}


def normalize_key(key: str) -> str:
    """The editor's name for ``key``: an alias (any case, ``arrow_left`` and ``page-down``
    spellings too), ``f1``..``f24`` as ``F1``.., anything else unchanged."""
    raw = str(key).strip()
    low = raw.lower()
    if low in ALIASES:
        return ALIASES[low]
    compact = re.sub(r"[^a-z0-9]", "", low)
    if compact in ALIASES:
        return ALIASES[compact]
    if re.fullmatch(r"f\d{1,2}", low):
        return low.upper()
    return raw


def unknown_key(key: str) -> str | None:
    """Why ``key`` (already normalized) cannot be pressed, or None when it can."""
    if is_key_name(key):
        return None
    return f'Unknown key: "{key}"'
