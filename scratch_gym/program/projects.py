"""Project data: the default empty project, reading and checking project files, and the
project.json inside project data (a project.json ``dict`` or ``.sb3`` bytes).

The empty project mirrors the editor's own default: a white backdrop and one sprite, "Sprite1",
with the cat's two costumes and the Meow sound, whose assets are built into the editor bundle (so
it loads offline). The editor's default "my variable" is left out: an empty project has none.
"""

from __future__ import annotations

import copy
import io
import json
import zipfile
from pathlib import Path
from typing import Any

_EMPTY_PROJECT: dict[str, Any] = {
    "targets": [
        {
            "isStage": True,
            "name": "Stage",
            "variables": {},
            "lists": {},
            "broadcasts": {},
            "blocks": {},
            "comments": {},
            "currentCostume": 0,
            "costumes": [
                {
                    "name": "backdrop1",
                    "dataFormat": "svg",
                    "assetId": "cd21514d0531fdffb22204e0ec5ed84a",
                    "md5ext": "cd21514d0531fdffb22204e0ec5ed84a.svg",
                    "rotationCenterX": 240,
                    "rotationCenterY": 180,
                }
            ],
            "sounds": [
                {
                    "name": "pop",
                    "assetId": "83a9787d4cb6f3b7632b4ddfebf74367",
                    "dataFormat": "wav",
                    "format": "",
                    "rate": 44100,
                    "sampleCount": 1032,
                    "md5ext": "83a9787d4cb6f3b7632b4ddfebf74367.wav",
                }
            ],
            "volume": 100,
            "layerOrder": 0,
            "tempo": 60,
            "videoTransparency": 50,
            "videoState": "on",
            "textToSpeechLanguage": None,
        },
        {
            "isStage": False,
            "name": "Sprite1",
            "variables": {},
            "lists": {},
            "broadcasts": {},
            "blocks": {},
            "comments": {},
            "currentCostume": 0,
            "costumes": [
                {
                    "name": "costume1",
                    "bitmapResolution": 1,
                    "dataFormat": "svg",
                    "assetId": "bcf454acf82e4504149f7ffe07081dbc",
                    "md5ext": "bcf454acf82e4504149f7ffe07081dbc.svg",
                    "rotationCenterX": 48,
                    "rotationCenterY": 50,
                },
                {
                    "name": "costume2",
                    "bitmapResolution": 1,
                    "dataFormat": "svg",
                    "assetId": "0fb9be3e8397c983338cb71dc84d0b25",
                    "md5ext": "0fb9be3e8397c983338cb71dc84d0b25.svg",
                    "rotationCenterX": 46,
                    "rotationCenterY": 53,
                },
            ],
            "sounds": [
                {
                    "name": "Meow",
                    "assetId": "83c36d806dc92327b9e7049a565c6bff",
                    "dataFormat": "wav",
                    "format": "",
                    "rate": 44100,
                    "sampleCount": 37376,
                    "md5ext": "83c36d806dc92327b9e7049a565c6bff.wav",
                }
            ],
            "volume": 100,
            "layerOrder": 1,
            "visible": True,
            "x": 0,
            "y": 0,
            "size": 100,
            "direction": 90,
            "draggable": False,
            "rotationStyle": "all around",
        },
    ],
    "monitors": [],
    "extensions": [],
    "meta": {"semver": "3.0.0", "vm": "15.2.0", "agent": "scratch-gym"},
}


def empty_project() -> dict[str, Any]:
    """A fresh copy of the empty project (Stage + Sprite1 with the cat costume)."""
    return copy.deepcopy(_EMPTY_PROJECT)


def read_project_file(path: str | Path) -> dict[str, Any] | bytes:
    """Read a project for loading: ``.sb3`` bytes (checked to be a valid archive) or project JSON.

    Raises FileNotFoundError naming the path, and ValueError saying what is wrong with the file.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"project file not found: {path}")
    data = path.read_bytes()
    if path.suffix.lower() == ".sb3" or data[:2] == b"PK":
        check_sb3(data, path)
        return data
    try:
        project = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: not an .sb3 archive and not valid project JSON ({exc})") from exc
    check_project_json(project, str(path))
    return project


def check_sb3(data: bytes, where: str | Path = "<sb3>") -> None:
    """Validate an .sb3 archive: a zip holding a project.json with targets."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            if "project.json" not in zf.namelist():
                raise ValueError(f"{where}: the .sb3 archive has no project.json")
            project = json.loads(zf.read("project.json").decode("utf-8"))
    except zipfile.BadZipFile as exc:
        raise ValueError(f"{where}: not a valid .sb3 (zip) archive: {exc}") from exc
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(
            f"{where}: project.json inside the .sb3 is not valid JSON ({exc})"
        ) from exc
    check_project_json(project, str(where))


def check_project_json(project: Any, where: str = "<project>") -> None:
    """Validate the top level of a Scratch 3 project.json."""
    if not isinstance(project, dict):
        raise ValueError(f"{where}: a project must be a JSON object, got {type(project).__name__}")
    targets = project.get("targets")
    if not isinstance(targets, list) or not targets:
        raise ValueError(f"{where}: a Scratch 3 project needs a non-empty 'targets' list")
    if not any(isinstance(t, dict) and t.get("isStage") for t in targets):
        raise ValueError(f"{where}: the project has no stage target (isStage: true)")


def project_json(data: dict[str, Any] | bytes) -> dict[str, Any]:
    """The project.json of project data: the dict itself, or read from inside ``.sb3`` bytes."""
    if isinstance(data, dict):
        return data
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return json.loads(zf.read("project.json").decode("utf-8"))


def with_project_json(
    original: dict[str, Any] | bytes, new_json: dict[str, Any]
) -> dict[str, Any] | bytes:
    """``new_json`` as loadable data like ``original``: for ``.sb3`` bytes, the same archive (its
    assets kept) with project.json replaced."""
    if isinstance(original, dict):
        return new_json
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(original)) as src,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst,
    ):
        for item in src.infolist():
            if item.filename != "project.json":
                dst.writestr(item, src.read(item.filename))
        dst.writestr("project.json", json.dumps(new_json))
    return out.getvalue()
