"""Where the package finds its data: the browser side (``web/``), task suites and the editor cache.

In a source checkout these are the repository's top-level folders; in an installed wheel they are
packed under ``scratch_gym/_data``. The pinned editor itself is never packaged: the set-up fetches it
into a cache folder (``$SCRATCH_GYM_CACHE`` or ``~/.cache/scratch-gym``).
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
_REPO_ROOT = PACKAGE_DIR.parent


def _data_root() -> Path:
    """The folder that holds ``web/`` and ``tasks/``: the checkout, else the wheel's ``_data``."""
    if (_REPO_ROOT / "web" / "scratch-editor").is_dir():
        return _REPO_ROOT
    return PACKAGE_DIR / "_data"


def web_dir() -> Path:
    """The browser side: host page, bridge scripts and the editor pin."""
    return _data_root() / "web" / "scratch-editor"


# The Single-Step Drag suite's folder under ``tasks/`` (its tasks have a schema of their own, so
# the program-task registry passes it by).
SINGLE_DRAG_DIR = "single_drag"


def tasks_dir() -> Path:
    """The task suites shipped with the package."""
    return _data_root() / "tasks"


def cache_dir() -> Path:
    """Cache folder for the downloaded editor (outside git, rebuilt by the set-up)."""
    root = os.environ.get("SCRATCH_GYM_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "scratch-gym"
    )
    return Path(root)
