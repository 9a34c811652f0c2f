"""Fixtures of the NL2Scratch tests: the shared 800-example file, read by path when present."""

from __future__ import annotations

import json

import pytest

from .cases import DIAG_800


@pytest.fixture(scope="session")
def diag800() -> list[dict]:
    """The paper's 800 diagnostic examples (skips when the shared data is absent)."""
    if not DIAG_800.is_file():
        pytest.skip(f"NL2Scratch data not found at {DIAG_800} (set SCRATCH_GYM_SHARED)")
    with DIAG_800.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]
