"""Project data for tasks: reading task project files, and the start state tests begin from.

Project data is a project.json ``dict`` or ``.sb3`` bytes (with packed assets), what
``EditorPage.load_project`` and the evaluator accept. Task project files are ``.sb3``, project
``.json`` or a project spec in TOML with scratchblocks scripts (``.toml``, built by
:mod:`scratch_gym.tasks.authoring`).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from scratch_gym.program.projects import check_project_json, check_sb3, with_project_json
from scratch_gym.program.projects import project_json as read_project_json
from scratch_gym.tasks.schema import ProjectRef

ProjectData = dict[str, Any] | bytes | ProjectRef

_cache: dict[tuple[str, float], dict[str, Any] | bytes] = {}


def load_project(ref: ProjectRef | str | Path) -> dict[str, Any] | bytes:
    """The project a task file names, as loadable data (cached by path and modification time)."""
    path = Path(ref.path if isinstance(ref, ProjectRef) else ref)
    if not path.is_file():
        raise FileNotFoundError(f"project file not found: {path}")
    key = (str(path.resolve()), path.stat().st_mtime)
    if key not in _cache:
        _cache[key] = _read(path)
    data = _cache[key]
    return copy.deepcopy(data) if isinstance(data, dict) else data


def _read(path: Path) -> dict[str, Any] | bytes:
    suffix = path.suffix.lower()
    if suffix == ".sb3":
        data = path.read_bytes()
        check_sb3(data, path)
        return data
    if suffix == ".json":
        project = json.loads(path.read_text(encoding="utf-8"))
        check_project_json(project, str(path))
        return project
    if suffix == ".toml":
        from scratch_gym.tasks.authoring import build_project_file

        return build_project_file(path)
    raise ValueError(f"{path}: unknown project file type {suffix!r} (use .sb3, .json or .toml)")


def resolve(project: ProjectData) -> dict[str, Any] | bytes:
    """Project data from a ProjectRef, or the data itself."""
    return load_project(project) if isinstance(project, ProjectRef) else project


def project_json(project: ProjectData) -> dict[str, Any]:
    """The project.json of project data or of the project file a task names."""
    return read_project_json(resolve(project))


def with_json(project: ProjectData, new_json: dict[str, Any]) -> dict[str, Any] | bytes:
    """The same project (same assets) with its project.json replaced."""
    return with_project_json(resolve(project), new_json)


STATE_KEYS = ("x", "y", "direction", "size", "visible", "currentCostume")


def start_state(project: ProjectData) -> dict[str, dict[str, Any]]:
    """Per target name, the state a test resets it to: position, direction, size, costume, shown."""
    state: dict[str, dict[str, Any]] = {}
    for target in project_json(project)["targets"]:
        name = "Stage" if target.get("isStage") else target["name"]
        state[name] = {k: target[k] for k in STATE_KEYS if k in target}
    return state
