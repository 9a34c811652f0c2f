"""Shared output helpers for subcommands: readable tables, the closing JSON line, and the one
error style (``error: <what> (<what is allowed>)`` on stderr, exit 2 for usage errors)."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence
from typing import Any

USAGE_EXIT = 2


class UsageError(Exception):
    """A user mistake on the command line (a bad argument, path or file): ``scratch-gym`` prints
    ``error: <message>`` on stderr and exits 2, without a traceback."""


def print_error(message: str) -> int:
    """Print ``error: <message>`` (one line) on stderr; returns the usage exit code, 2."""
    print(f"error: {' '.join(str(message).split())}", file=sys.stderr, flush=True)
    return USAGE_EXIT


def os_error_message(exc: OSError) -> str:
    """``[Errno 2] No such file or directory: 'x'`` as ``no such file or directory: x``."""
    if exc.filename is not None and exc.strerror:
        return f"{exc.strerror.lower()}: {exc.filename}"
    return str(exc)


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A plain aligned text table."""
    cells = [[str(h) for h in headers]] + [[_fmt(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}" if abs(value) < 100 else f"{value:.1f}"
    return str(value)


def json_safe(value: Any) -> Any:
    """``value`` with every non-finite number (NaN, +-Infinity) as ``None`` and numpy scalars as
    Python numbers, so that it is valid JSON (which has no NaN)."""
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if type(value).__module__ == "numpy" and getattr(value, "shape", None) == ():
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def json_line(payload: Any, sort_keys: bool = True) -> str:
    """``payload`` as one line of valid JSON (``null`` for NaN/Infinity, never ``NaN``)."""
    return json.dumps(json_safe(payload), sort_keys=sort_keys, default=str, allow_nan=False)


def print_json_last(payload: dict[str, Any], sort_keys: bool = True) -> None:
    """Print the subcommand's figures as one JSON object on the last line (valid JSON);
    ``sort_keys=False`` keeps the payload's order where it means something (a ranking)."""
    print(json_line(payload, sort_keys), flush=True)
