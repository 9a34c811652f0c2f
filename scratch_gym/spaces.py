"""Gymnasium spaces shared by the environments.

Gymnasium's ``Text`` defaults to an alphanumeric charset and ``min_length=1``; agent-facing text
(instructions, errors, typed text, program text) must accept any Unicode string, including "".
"""

from __future__ import annotations

import string
from typing import Any

import numpy as np
from gymnasium import spaces

_SAMPLE_CHARSET = string.ascii_letters + string.digits + " .,;:!?()[]{}<>+-*/=_'\"éßλ中🙂"


class UnicodeText(spaces.Text):
    """A text space that contains every ``str`` up to ``max_length`` characters (empty included)."""

    def __init__(self, max_length: int = 100_000, seed: int | np.random.Generator | None = None):
        super().__init__(max_length=max_length, min_length=0, charset=_SAMPLE_CHARSET, seed=seed)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"UnicodeText(max_length={self.max_length})"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, UnicodeText) and other.max_length == self.max_length
