"""Literal values in scratchblocks text: numbers, colours, invisible characters."""

from __future__ import annotations

import re

_INVISIBLE = re.compile(r"[\u200b\u200c\u200d\u2060\ufeff]")
_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$", re.IGNORECASE)
_INTEGER = re.compile(r"^[+-]?\d+$")
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def visible(text: str) -> str:
    """``text`` without zero-width characters."""
    return _INVISIBLE.sub("", text)


def is_number(text: str) -> bool:
    """True for a decimal number literal (surrounding blanks and zero-width characters allowed)."""
    return bool(_NUMBER.match(visible(text).strip()))


def has_letter(text: str) -> bool:
    return any(c.isalpha() for c in text)


def colour_from_text(text: str) -> str | None:
    """A colour slot's value as the sb3 format requires it (``#rrggbb``), or None.

    ``#rrggbb`` is kept; an integer (the NL2Scratch corpus spelling: a signed ARGB integer such
    as ``-16777216``, or a plain RGB one) becomes the ``#rrggbb`` of its low 24 bits, which is
    the colour the VM reads from it (alpha aside).
    """
    t = visible(text).strip()
    if _HEX.match(t):
        return t.lower()
    if _INTEGER.match(t):
        return f"#{int(t) & 0xFFFFFF:06x}"
    return None


def colour_to_int_text(value: str) -> str:
    """The NL2Scratch spelling of a colour value: ``#rrggbb`` as a signed ARGB integer."""
    if _HEX.match(value):
        return str(int(value[1:], 16) - 0x1000000)
    return value
