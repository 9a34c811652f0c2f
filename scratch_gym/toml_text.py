"""TOML text for plain data (dicts, lists, strings, numbers, booleans): the task files a
program writes (``tomllib`` reads TOML; the standard library writes none).

Tables come after a table's plain keys, lists of tables as ``[[name]]``; a multi-line string is
a literal block (``'''``) opened by a newline, which readers drop, and closed on a line of its
own, so the text read back ends with one newline more than written (the task readers strip it).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def dumps(data: dict[str, Any]) -> str:
    """``data`` as a TOML document; ValueError names a value TOML cannot hold (None, NaN)."""
    lines: list[str] = []
    _table(data, [], lines)
    return "\n".join(lines).strip("\n") + "\n"


def _key(name: str) -> str:
    return name if _BARE_KEY.fullmatch(name) else json.dumps(name)


def _is_table(value: Any) -> bool:
    return isinstance(value, dict)


def _is_table_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _table(data: dict[str, Any], path: list[str], lines: list[str]) -> None:
    for name, value in data.items():
        if not _is_table(value) and not _is_table_list(value):
            lines.append(f"{_key(name)} = {_value(value, path + [name], block=True)}")
    for name, value in data.items():
        here = path + [name]
        header = ".".join(_key(p) for p in here)
        if _is_table(value):
            lines += ["", f"[{header}]"]
            _table(value, here, lines)
        elif _is_table_list(value):
            for item in value:
                lines += ["", f"[[{header}]]"]
                _table(item, here, lines)


def _value(value: Any, path: list[str], block: bool = False) -> str:
    where = ".".join(path)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{where}: TOML holds no {value!r}")
        return repr(value)
    if isinstance(value, str):
        if block and "\n" in value and "'''" not in value and _printable(value):
            return f"'''\n{value}\n'''"
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v, path) for v in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(f"{_key(k)} = {_value(v, path + [k])}" for k, v in value.items())
        return "{" + inner + "}" if inner else "{}"
    raise ValueError(f"{where}: TOML holds no {type(value).__name__} ({value!r:.40})")


def _printable(text: str) -> bool:
    return all(ch == "\n" or ch == "\t" or ord(ch) >= 32 for ch in text)
