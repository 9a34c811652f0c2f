"""Fixtures of the NL2Scratch tests: the shared 800-example file, read by path."""

from __future__ import annotations

import json

import pytest

from .cases import DIAG_800, require_shared


@pytest.fixture(scope="session")
def diag800() -> list[dict]:
    """The paper's 800 diagnostic examples (../shared, present in CI: a missing file fails)."""
    with require_shared(DIAG_800).open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]
