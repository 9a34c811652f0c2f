"""The data of ../shared (ScratchWorld's slim checkout, NL2Scratch's items and predictions):
where tests find it, and what a test does where it is absent.

A user's clone has no ../shared: a test that needs it skips, naming the variable that finds it.
CI has it and sets ``$SCRATCH_GYM_REQUIRE_SHARED=1`` (.ci/run), so there a missing file fails
instead of skipping silently.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DIR = Path(os.environ.get("SCRATCH_GYM_SHARED", REPO_ROOT.parent / "shared"))
SCRATCHWORLD_DIR = SHARED_DIR / "data" / "scratchworld"
REQUIRE_SHARED = "SCRATCH_GYM_REQUIRE_SHARED"


def require_shared(path: Path) -> Path:
    """``path`` (a file or a folder under ``$SCRATCH_GYM_SHARED``, default ../shared) where it
    exists; else the test skips, saying which variable finds it, or with
    ``$SCRATCH_GYM_REQUIRE_SHARED=1`` fails."""
    if path.exists():
        return path
    reason = (
        f"{path} is missing: set SCRATCH_GYM_SHARED to the folder that holds data/ "
        f"(default: ../shared next to the checkout)"
    )
    if os.environ.get(REQUIRE_SHARED) == "1":
        pytest.fail(f"{reason}; {REQUIRE_SHARED}=1 requires it")
    pytest.skip(reason)
