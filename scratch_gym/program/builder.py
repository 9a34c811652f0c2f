"""ProjectBuilder: whole Scratch 3 projects from scratchblocks text, saved as .sb3.

    project = (
        ProjectBuilder()
        .sprite("Cat", costumes=[circle_costume("ball")], sounds=[Sound.tone("beep")],
                scripts='''
    when @greenFlag clicked
    repeat (10)
        move (7) steps
    end
    ''', x=0, y=0)
        .stage(scripts="when stage clicked\\nbroadcast (go v)", backdrops=[backdrop("sky", "#87ceeb")])
        .variable("score", 0)
        .build()
    )

It starts from the editor's empty project (Stage with a white backdrop, and ``Sprite1`` with
the cat, whose assets are built into the editor). ``sprite()`` adds a sprite or updates one of
that name (``Sprite1`` included); a new sprite without ``costumes`` wears the cat. Scripts are
parsed when the project is built, once every variable is declared. ``variable()``/``list()``
declare globals (on the stage) unless ``sprite=`` names the owner. A variable that scripts of
two or more targets create without a declaration is made global; one that only one sprite's
scripts use is local to that sprite. ``save_sb3()`` writes project.json and the drawn and
synthesised assets (named by md5); the built-in cat and backdrop assets come from the editor.
"""

from __future__ import annotations

import copy
import io
import json
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scratch_gym.program.assets import Costume, Sound
from scratch_gym.program.matcher import stable_id
from scratch_gym.program.parse import parse_scripts
from scratch_gym.program.projects import empty_project


@dataclass
class _Target:
    data: dict[str, Any]
    scripts: list[str] = field(default_factory=list)
    assets: dict[str, bytes] = field(default_factory=dict)


class ProjectBuilder:
    """Builds a project step by step; every method returns the builder."""

    def __init__(self, *, dialect: str = "standard", default_sprite: bool = True) -> None:
        project = empty_project()
        self.dialect = dialect
        self._meta = {k: v for k, v in project.items() if k != "targets"}
        stage, cat = project["targets"]
        self._cat = copy.deepcopy(cat)
        self._targets: dict[str, _Target] = {"Stage": _Target(stage)}
        if default_sprite:
            self._targets["Sprite1"] = _Target(cat)
        self._extensions: list[str] = list(project.get("extensions", []))

    # -- targets --------------------------------------------------------------------------------
    def sprite(
        self,
        name: str,
        *,
        costumes: list[Costume] | None = None,
        sounds: list[Sound] | None = None,
        scripts: str | list[str] | None = None,
        x: float | None = None,
        y: float | None = None,
        direction: float | None = None,
        size: float | None = None,
        visible: bool | None = None,
        draggable: bool | None = None,
        rotation_style: str | None = None,
        current_costume: int | None = None,
        variables: dict[str, Any] | None = None,
        lists: dict[str, list] | None = None,
    ) -> ProjectBuilder:
        """Add the sprite ``name`` or update it; unset arguments keep their values."""
        if name == "Stage":
            raise ValueError("'Stage' is the stage's name; use stage()")
        target = self._targets.get(name)
        if target is None:
            data = copy.deepcopy(self._cat)
            data.update(name=name, blocks={}, variables={}, lists={}, broadcasts={}, comments={})
            target = self._targets[name] = _Target(data)
        data = target.data
        if costumes is not None:
            self._set_costumes(target, costumes)
        if sounds is not None:
            self._set_sounds(target, sounds)
        for key, value in (
            ("x", x),
            ("y", y),
            ("direction", direction),
            ("size", size),
            ("visible", visible),
            ("draggable", draggable),
            ("rotationStyle", rotation_style),
            ("currentCostume", current_costume),
        ):
            if value is not None:
                data[key] = value
        for var, value in (variables or {}).items():
            self.variable(var, value, sprite=name)
        for lst, items in (lists or {}).items():
            self.list(lst, items, sprite=name)
        self._add_scripts(target, scripts)
        return self

    def stage(
        self,
        *,
        scripts: str | list[str] | None = None,
        backdrops: list[Costume] | None = None,
        sounds: list[Sound] | None = None,
        current_backdrop: int | None = None,
        tempo: float | None = None,
        volume: float | None = None,
    ) -> ProjectBuilder:
        """Set the stage's backdrops, sounds and scripts."""
        target = self._targets["Stage"]
        if backdrops is not None:
            self._set_costumes(target, backdrops)
        if sounds is not None:
            self._set_sounds(target, sounds)
        for key, value in (
            ("currentCostume", current_backdrop),
            ("tempo", tempo),
            ("volume", volume),
        ):
            if value is not None:
                target.data[key] = value
        self._add_scripts(target, scripts)
        return self

    def remove_sprite(self, name: str) -> ProjectBuilder:
        """Remove a sprite (e.g. the default ``Sprite1``)."""
        if name == "Stage" or name not in self._targets:
            raise KeyError(f"no sprite named {name!r}")
        del self._targets[name]
        return self

    def variable(self, name: str, value: Any = 0, *, sprite: str | None = None) -> ProjectBuilder:
        """Declare a variable: global, or local to ``sprite``."""
        owner = self._owner(sprite)
        vid = _find(owner.data["variables"], name)
        owner.data["variables"][vid or stable_id(f"{owner.data['name']}var", name)] = [name, value]
        return self

    def list(self, name: str, items: Any = (), *, sprite: str | None = None) -> ProjectBuilder:
        """Declare a list: global, or local to ``sprite``."""
        owner = self._owner(sprite)
        lid = _find(owner.data["lists"], name)
        owner.data["lists"][lid or stable_id(f"{owner.data['name']}list", name)] = [
            name,
            list(items),
        ]
        return self

    def broadcast(self, name: str) -> ProjectBuilder:
        """Declare a broadcast message (scripts declare the ones they use themselves)."""
        self._targets["Stage"].data["broadcasts"][stable_id("broadcast", name)] = name
        return self

    def extension(self, name: str) -> ProjectBuilder:
        """Load an extension with the project (``pen`` is added when scripts use it)."""
        if name not in self._extensions:
            self._extensions.append(name)
        return self

    # -- output ---------------------------------------------------------------------------------
    def build(self) -> dict[str, Any]:
        """The project.json dict (scripts parsed now). Raises ScratchblocksError."""
        shared = self._shared_variables()
        targets = {name: copy.deepcopy(t.data) for name, t in self._targets.items()}
        stage = targets["Stage"]
        for var in shared:
            if _find(stage["variables"], var) is None:
                stage["variables"][stable_id("Stagevar", var)] = [var, 0]
        extensions = list(self._extensions)
        for index, (name, t) in enumerate(self._targets.items()):
            data = targets[name]
            for k, text in enumerate(t.scripts):
                parsed = parse_scripts(
                    text,
                    dialect=self.dialect,
                    target=data,
                    stage=None if data is stage else stage,
                    id_prefix=f"t{index}s{k}_",
                    origin=(0, _bottom(data["blocks"])),
                )
                parsed.apply_to(data, stage)
                if any(str(b.get("opcode", "")).startswith("pen_") for b in parsed.blocks.values()):
                    if "pen" not in extensions:
                        extensions.append("pen")
        ordered = [stage] + [t for n, t in targets.items() if n != "Stage"]
        for layer, t in enumerate(ordered):
            t["layerOrder"] = layer
        return {"targets": ordered, **copy.deepcopy(self._meta), "extensions": extensions}

    def assets(self) -> dict[str, bytes]:
        """The asset files this builder made (md5ext -> bytes)."""
        out: dict[str, bytes] = {}
        for t in self._targets.values():
            out.update(t.assets)
        return out

    def sb3_bytes(self) -> bytes:
        """The project as .sb3 (zip) bytes."""
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr("project.json", json.dumps(self.build()))
            for name, data in sorted(self.assets().items()):
                zf.writestr(name, data)
        return buf.getvalue()

    def save_sb3(self, path: str | Path) -> Path:
        """Write the project as an .sb3 file; returns the path."""
        path = Path(path)
        path.write_bytes(self.sb3_bytes())
        return path

    # -- helpers --------------------------------------------------------------------------------
    def _owner(self, sprite: str | None) -> _Target:
        name = sprite or "Stage"
        if name not in self._targets:
            raise KeyError(f"no sprite named {name!r}")
        return self._targets[name]

    def _set_costumes(self, target: _Target, costumes: list[Costume]) -> None:
        if not costumes:
            raise ValueError(f"{target.data['name']} needs at least one costume")
        target.data["costumes"] = [c.entry() for c in costumes]
        target.data["currentCostume"] = 0
        target.assets.update({c.md5ext: c.data for c in costumes})

    def _set_sounds(self, target: _Target, sounds: list[Sound]) -> None:
        target.data["sounds"] = [s.entry() for s in sounds]
        target.assets.update({s.md5ext: s.data for s in sounds})

    def _add_scripts(self, target: _Target, scripts: str | list[str] | None) -> None:
        if scripts is None:
            return
        target.scripts.extend([scripts] if isinstance(scripts, str) else scripts)

    def _shared_variables(self) -> set[str]:
        """Undeclared variables that the scripts of two or more targets create."""
        stage = self._targets["Stage"].data
        users: Counter[str] = Counter()
        for t in self._targets.values():
            created: set[str] = set()
            for text in t.scripts:
                parsed = parse_scripts(
                    text,
                    dialect=self.dialect,
                    target=t.data,
                    stage=None if t.data is stage else stage,
                )
                created.update(parsed.created_variables)
            users.update(created)
        return {name for name, n in users.items() if n > 1}


def _find(entries: dict[str, Any], name: str) -> str | None:
    for vid, value in entries.items():
        if value[0] == name:
            return vid
    return None


def _bottom(blocks: dict[str, Any]) -> float:
    ys = [b.get("y", 0) for b in blocks.values() if isinstance(b, dict) and b.get("topLevel")]
    return max(ys) + 400 if ys else 0
