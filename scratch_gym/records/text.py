"""Records as text: a plain aligned table (every suite's report, the command line's listings) and
one line of valid JSON (``null`` for NaN/Infinity, never ``NaN``)."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any


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
