"""Text helpers shared by the NL2Scratch metrics: program lines, names and numbers.

* Names are normalised as the paper describes: lowercase, surrounding quotes trimmed, whitespace
  collapsed and the dropdown marker `` v`` removed. Invisible characters (zero-width spaces) are
  dropped first.
* Numbers are canonical strings: ``3.0 -> "3"``, ``-0 -> "0"``, ``.5 -> "0.5"``; at most six
  decimals.
* A *standalone* number is one not glued to a word: ``costume5`` holds no number, ``x=-171`` holds
  ``-171``, ``ball-2`` holds ``2`` (the hyphen is not read as a minus sign after a letter).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

_INVISIBLE = re.compile(r"[\u200b\u200c\u200d\u2060\ufeff]")
_NUMBER = re.compile(r"(-?)(\d+(?:\.\d+)?|\.\d+)")
_MENU_MARKER = re.compile(r"\s+v$")


def clean(text: str) -> str:
    """``text`` without invisible characters and with typographic quotes made plain."""
    text = _INVISIBLE.sub("", text)
    return (
        text.replace("\u2019", "'")
        .replace("\u2018", "'")
        .replace("\u201c", '"')
        .replace("\u201d", '"')
    )


def program_lines(program: str | Iterable[str] | None) -> list[str]:
    """The non-blank lines of a program given as one string or as a list of lines."""
    if program is None:
        return []
    if isinstance(program, str):
        raw = program.splitlines()
    else:
        raw = [str(line) for item in program for line in str(item).splitlines()]
    return [clean(line).rstrip() for line in raw if clean(line).strip()]


def normalize_name(value: str) -> str:
    """A name as SAC compares it: lowercase, trimmed quotes, collapsed spaces, no `` v``."""
    value = re.sub(r"\s+", " ", clean(value)).strip().lower()
    value = value.strip("\"' ")
    value = _MENU_MARKER.sub("", value)
    return value.strip("\"' ")


def loose_name(value: str) -> str:
    """A looser key for finding a name inside prose: separators ``-_.`` read as spaces."""
    value = re.sub(r"[-_./]+", " ", normalize_name(value))
    return re.sub(r"\s+", " ", value).strip()


def normalize_number(value: str | float | int) -> str | None:
    """Canonical string of a number (``3.0 -> "3"``), or None when it is not a finite number."""
    try:
        number = float(str(value).strip())
    except ValueError:
        return None
    if not math.isfinite(number):
        return None
    if math.isclose(number, round(number), abs_tol=1e-9):
        return str(int(round(number)))
    return f"{number:.6f}".rstrip("0").rstrip(".")


def is_number(value: str) -> bool:
    """Whether ``value`` (e.g. a block argument) is a plain number literal."""
    return bool(re.fullmatch(r"\s*-?(?:\d+(?:\.\d+)?|\.\d+)\s*", value))


def standalone_numbers(text: str) -> list[str]:
    """The canonical numbers written in ``text`` that are not part of a word."""
    out: list[str] = []
    for match in _NUMBER.finditer(text):
        start = match.start()
        before = text[start - 1] if start > 0 else " "
        sign = match.group(1)
        if sign:
            # "-5" is negative unless the hyphen joins it to a word ("ball-5", "1-6").
            if before.isalnum() or before == "_":
                sign = ""
                before = "-"
        elif before.isalnum() or before in "_.":
            continue
        end = match.end()
        after = text[end] if end < len(text) else " "
        if after.isalnum() or after == "_":
            continue
        value = normalize_number(sign + match.group(2))
        if value is not None:
            out.append(value)
    return out


def abs_number(value: str) -> str:
    """The magnitude of a canonical number string."""
    return value[1:] if value.startswith("-") else value
