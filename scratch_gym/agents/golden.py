"""A task's golden solution as project.json, and the error an oracle raises when it cannot plan."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

from scratch_gym.editor.projects import empty_project


class Unsupported(ValueError):
    """The golden solution needs something the oracle cannot do (e.g. a new sprite)."""


def project_json(data: dict | bytes | None) -> dict[str, Any]:
    """project.json of project data (a dict, or .sb3 bytes); the empty project for None."""
    if data is None:
        return empty_project()
    if isinstance(data, bytes):
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            return json.loads(zf.read("project.json"))
    return data
