"""A task's golden solution as project.json, and the error an oracle raises when it cannot plan."""

from __future__ import annotations

from typing import Any

from scratch_gym.program.projects import empty_project
from scratch_gym.program.projects import project_json as read_project_json


class Unsupported(ValueError):
    """The golden solution needs something the oracle cannot do (e.g. a new sprite)."""


def project_json(data: dict | bytes | None) -> dict[str, Any]:
    """project.json of project data (a dict, or .sb3 bytes); the empty project for None."""
    return empty_project() if data is None else read_project_json(data)
