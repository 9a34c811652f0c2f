"""Progress bars that read well both on a terminal and in a redirected log.

On a terminal, :func:`progress_bar` is a plain ``tqdm`` bar redrawn in place. When its stream is
not a terminal (``2> run.log``, a batch job), carriage-return redraws would pile into one endless
line, so it writes plain lines instead: one per update at most every ``LOG_INTERVAL_S`` seconds,
one per ``set_postfix`` (the runner's: one per finished episode), and the final state when it
closes.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from typing import Any, TextIO

from tqdm import tqdm

LOG_INTERVAL_S = 30.0
LOG_FORMAT = "{desc}: {n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_fmt}{postfix}]"  # no bar
_CONTROL = re.compile(r"\x1b\[[0-9;]*[A-Za-z]|[\r\n]")


class _LineWriter:
    """A stream for tqdm that turns each redraw into one line of its own."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        line = _CONTROL.sub("", text).rstrip()
        if line:
            self.stream.write(line + "\n")
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def progress_bar(iterable: Iterable[Any] | None = None, **kwargs: Any) -> tqdm:
    """``tqdm(iterable, **kwargs)`` on stderr (or ``file=``); a line per update when the stream is
    not a terminal (see the module doc)."""
    stream = kwargs.pop("file", None) or sys.stderr
    if not is_terminal(stream):
        kwargs.setdefault("mininterval", LOG_INTERVAL_S)
        kwargs.setdefault("bar_format", LOG_FORMAT)
        stream = _LineWriter(stream)
    return tqdm(iterable, file=stream, **kwargs)
