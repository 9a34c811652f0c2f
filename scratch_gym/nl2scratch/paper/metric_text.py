"""The text the paper protocol measures: the published scorer's whitespace normalisation (what
its parser reads) and, for EM and F1, that text with ``,``, ``，`` and ``:`` turned into spaces and
non-ASCII characters dropped."""

from __future__ import annotations

import re

_EM_BLANKED = re.compile(r"[，,:]")


def normalize_text(text: str) -> str:
    """Non-blank lines, stripped, inner whitespace collapsed, joined by newlines."""
    return "\n".join(" ".join(line.split()) for line in text.splitlines() if line.strip())


def metric_text(text: str) -> str:
    """The text EM and F1 compare under the paper protocol."""
    blanked = _EM_BLANKED.sub(" ", normalize_text(text))
    return blanked.encode("ascii", "ignore").decode()
