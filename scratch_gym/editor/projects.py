"""Moved to :mod:`scratch_gym.program.projects` (project data is pure Python, under the editor)."""

from scratch_gym.program.projects import (  # noqa: F401
    check_project_json,
    check_sb3,
    empty_project,
    read_project_file,
)
