"""Argument types: a missing path, a corrupt file or a count below 1 is a one-line usage error
(``error: scratch-gym run: argument --project: ...``, exit 2) before any browser starts."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path


def existing_file(text: str) -> str:
    """A path to a file that exists."""
    path = Path(text).expanduser()
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder (a file is needed)")
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"no such file: {text}")
    return str(path)


def existing_dir(text: str) -> str:
    """A path to a folder that exists."""
    path = Path(text).expanduser()
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a file (a folder is needed)")
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"no such folder: {text}")
    return str(path)


def project_file(text: str) -> str:
    """A Scratch project file that exists and parses: an ``.sb3`` archive or a project.json."""
    from scratch_gym.program.projects import read_project_file

    existing_file(text)
    try:
        read_project_file(Path(text).expanduser())
    except (OSError, ValueError) as exc:
        raise argparse.ArgumentTypeError(f"{exc} (an .sb3 archive or a project.json)") from None
    return str(Path(text).expanduser())


TASK_PROJECT_SUFFIXES = (".sb3", ".json", ".toml")


def task_project_file(text: str) -> str:
    """A project file a task can be evaluated on: ``.sb3``, project ``.json`` or ``.toml``."""
    existing_file(text)
    if Path(text).suffix.lower() not in TASK_PROJECT_SUFFIXES:
        raise argparse.ArgumentTypeError(
            f"{text}: unknown project file type (allowed: {', '.join(TASK_PROJECT_SUFFIXES)})"
        )
    return str(Path(text).expanduser())


def int_at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: an integer of at least ``minimum``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not an integer ({minimum} or more)"
            ) from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is below {minimum} ({minimum} or more)")
        return value

    return parse


positive_int = int_at_least(1)
non_negative_int = int_at_least(0)
