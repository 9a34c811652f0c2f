"""Names a client may load or evaluate: only files inside the checkout's own folders.

``load_project`` names an .sb3 of ``scratch-gui/static``; ``evaluate`` names a script of
``scratch-bench-api/api/evaluation_scripts``. A name with a path separator, ``..`` or anything
resolving outside its folder is refused (400); a well-formed name that is not there is 404.
"""

from __future__ import annotations

import re
from pathlib import Path

from scratch_gym.scratchworld.checkout import SCRIPTS_DIR, STATIC_DIR, UTILS_FILE

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\- ]{0,199}$")


class BadName(ValueError):
    """A name that could reach outside its folder (400)."""


class NotThere(FileNotFoundError):
    """A well-formed name with no file (404)."""


def _inside(folder: Path, name: str, suffix: str) -> Path:
    if not NAME.match(name) or ".." in name:
        raise BadName(
            f"{name!r} is not a plain file name (letters, digits, _ . - and spaces, "
            f"no path separators or '..')"
        )
    base = folder.resolve()
    path = (base / name).resolve()
    if path.parent != base or path.suffix != suffix:
        raise BadName(f"{name!r} must name a {suffix} file directly inside {base.name}/")
    if not path.is_file():
        raise NotThere(f"no {name} in {base}")
    return path


def project_path(root: Path, name: str) -> Path:
    """The starting project ``name`` (e.g. ``bouncing_cat.sb3``) of the checkout at ``root``."""
    return _inside(root / STATIC_DIR, name, ".sb3")


def script_path(root: Path, task_name: str) -> Path:
    """The evaluation script of ``task_name`` (their service names scripts by task)."""
    return _inside(root / SCRIPTS_DIR, f"{task_name}.js", ".js")


def utils_text(root: Path) -> str | None:
    path = root / SCRIPTS_DIR / UTILS_FILE
    return path.read_text(encoding="utf-8") if path.is_file() else None
