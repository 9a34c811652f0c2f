"""Shared output helpers for subcommands: the closing JSON line and the one error style
(``error: <what> (<what is allowed>)`` on stderr, exit 2 for usage errors).

The text table and the JSON line live below every package (:mod:`scratch_gym.records.text`); they
are re-exported here for scripts (``examples/``, ``benchmarks/``) that print like a subcommand."""

from __future__ import annotations

import sys
from typing import Any

from scratch_gym.records.text import json_line, table

__all__ = [
    "USAGE_EXIT",
    "UsageError",
    "json_line",
    "os_error_message",
    "print_error",
    "print_json_last",
    "table",
]

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


def print_json_last(payload: dict[str, Any], sort_keys: bool = True) -> None:
    """Print the subcommand's figures as one JSON object on the last line (valid JSON);
    ``sort_keys=False`` keeps the payload's order where it means something (a ranking)."""
    print(json_line(payload, sort_keys), flush=True)
