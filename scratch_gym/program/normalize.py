"""Normalising scratchblocks text for comparison: whitespace and the spelling of menu values."""

from __future__ import annotations

import re
from collections.abc import Iterable

from scratch_gym.program.values import visible

# Menu values that the editor stores under one name and shows under another.
MENU_SPELLINGS = {
    "_edge_": "edge",
    "_mouse_": "mouse-pointer",
    "_random_": "random position",
    "_myself_": "myself",
    "_stage_": "Stage",
}
_MENU = re.compile(r"([(\[])\s*(" + "|".join(map(re.escape, MENU_SPELLINGS)) + r")\s+v\s*([)\]])")
_SPACE = re.compile(r"\s+")
_OPEN = re.compile(r"([(\[])\s+")
_CLOSE = re.compile(r"\s+([)\]])")


def normalize_line(line: str) -> str:
    """One line with runs of blanks made one space, no blanks inside bracket edges, no
    zero-width characters, and menu values spelled as the editor shows them."""
    text = _SPACE.sub(" ", visible(line)).strip()
    text = _OPEN.sub(r"\1", text)
    text = _CLOSE.sub(r"\1", text)
    return _MENU.sub(lambda m: f"{m[1]}{MENU_SPELLINGS[m[2]]} v{m[3]}", text)


def normalize_program(lines: str | Iterable[str]) -> list[str]:
    """The non-blank lines of a program, each normalised by :func:`normalize_line`."""
    if isinstance(lines, str):
        lines = lines.splitlines()
    return [normalize_line(x) for x in lines if x.strip()]
