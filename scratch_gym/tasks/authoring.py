"""Task projects written as text: a TOML file of sprites, costumes and scratchblocks scripts,
built into an .sb3 by the program model's ``ProjectBuilder``.

::

    extends = "start.toml"          # optional: start from another project file, then change it

    [stage]
    backdrops = [{name = "sky", backdrop = "#87ceeb"}]
    scripts = '''
    when I receive [go v]
    switch backdrop to [sky v]
    '''

    [[sprites]]
    name = "Sprite1"                # the default cat sprite; other names add sprites
    x = 0
    y = 0
    costumes = [{name = "ball", circle = 15, fill = "#ff0000"}]   # omitted: the cat
    sounds = [{name = "beep", tone = 880, seconds = 0.2}]
    variables = {speed = 5}         # local to this sprite
    scripts = '''
    when @greenFlag clicked
    say [Hello!]
    '''

    [variables]                     # global variables and lists
    score = 0
    [lists]
    items = ["a", "b"]

    remove_sprites = ["Sprite1"]    # drop sprites (e.g. the default one)

With ``extends``, a sprite entry of the same name updates that sprite (its ``scripts`` replace the
base's); tables merge key by key. Costumes: ``circle = r`` / ``rect = [w, h]`` (with ``fill``),
``backdrop = "#colour"``, or ``svg = "<svg ...>"`` (with optional ``center = [x, y]``).
"""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

from scratch_gym.program import Costume, ProjectBuilder, Sound
from scratch_gym.program.assets import backdrop, circle_costume, rect_costume
from scratch_gym.tasks.schema import Fields, TaskError

SPRITE_KEYS = {
    "name",
    "x",
    "y",
    "direction",
    "size",
    "visible",
    "draggable",
    "rotation_style",
    "current_costume",
    "costumes",
    "sounds",
    "scripts",
    "variables",
    "lists",
}
STAGE_KEYS = {"backdrops", "sounds", "scripts", "current_backdrop", "tempo", "volume"}
TOP_KEYS = {"extends", "stage", "sprites", "variables", "lists", "remove_sprites"}


def read_spec(path: Path, _seen: tuple[Path, ...] = ()) -> dict[str, Any]:
    """The project spec of ``path`` with its ``extends`` chain merged in."""
    path = path.resolve()
    if path in _seen:
        raise TaskError(path, "extends", "extends itself (a cycle)")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise TaskError(path, "<file>", f"not valid TOML: {exc}") from None
    Fields(data, path).reject_unknown(TOP_KEYS)
    base_name = data.pop("extends", None)
    if base_name is None:
        return data
    base_path = path.parent / base_name
    if not base_path.is_file():
        raise TaskError(path, "extends", f"{base_name!r} does not exist")
    return merge(read_spec(base_path, (*_seen, path)), data)


def merge(base: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in child.items():
        if key == "sprites":
            sprites = {s["name"]: s for s in out.get("sprites", [])}
            for s in value:
                if s.get("name") in sprites:
                    sprites[s["name"]].update(copy.deepcopy(s))
                else:
                    sprites[s.get("name")] = copy.deepcopy(s)
            out["sprites"] = list(sprites.values())
        elif isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = {**out[key], **copy.deepcopy(value)}
        else:
            out[key] = copy.deepcopy(value)
    return out


def build_project_file(path: Path) -> bytes:
    """Build the project of a spec file into .sb3 bytes (assets packed)."""
    return build_spec(read_spec(path), path).sb3_bytes()


def build_spec(spec: dict[str, Any], where: Path | str) -> ProjectBuilder:
    """A ProjectBuilder for a (merged) spec; errors name the file and field."""
    builder = ProjectBuilder()
    for name, value in spec.get("variables", {}).items():
        builder.variable(name, value)
    for name, items in spec.get("lists", {}).items():
        builder.list(name, items)
    for i, sprite in enumerate(spec.get("sprites", [])):
        f = Fields(sprite, where, f"sprites[{i}].")
        f.reject_unknown(SPRITE_KEYS)
        name = f.text("name")
        args = {k: v for k, v in sprite.items() if k not in ("name", "costumes", "sounds")}
        if "costumes" in sprite:
            args["costumes"] = [_costume(c, f, "costumes") for c in sprite["costumes"]]
        if "sounds" in sprite:
            args["sounds"] = [_sound(s, f) for s in sprite["sounds"]]
        builder.sprite(name, **args)
    for name in spec.get("remove_sprites", []):
        try:
            builder.remove_sprite(name)
        except KeyError:
            raise TaskError(where, "remove_sprites", f"no sprite named {name!r}") from None
    if "stage" in spec:
        f = Fields(spec["stage"], where, "stage.")
        f.reject_unknown(STAGE_KEYS)
        args = {k: v for k, v in spec["stage"].items() if k not in ("backdrops", "sounds")}
        if "backdrops" in spec["stage"]:
            args["backdrops"] = [_costume(c, f, "backdrops") for c in spec["stage"]["backdrops"]]
        if "sounds" in spec["stage"]:
            args["sounds"] = [_sound(s, f) for s in spec["stage"]["sounds"]]
        builder.stage(**args)
    try:
        builder.build()  # parse now, so that scratchblocks errors name this file
    except ValueError as exc:
        raise TaskError(where, "scripts", str(exc)) from None
    return builder


def _costume(spec: Any, f: Fields, key: str) -> Costume:
    c = Fields(spec, f.where, f"{f.name(key)}.")
    name = c.text("name")
    fill = c.get("fill", str, "#4c97ff")
    if "circle" in spec:
        return circle_costume(name, c.get("circle", (int, float)), fill)
    if "rect" in spec:
        w, h = c.get("rect", list)
        return rect_costume(name, w, h, fill)
    if "backdrop" in spec:
        return backdrop(name, c.get("backdrop", str))
    if "svg" in spec:
        center = c.get("center", list, None)
        return Costume.from_svg(name, c.get("svg", str), tuple(center) if center else None)
    raise c.error("name", "a costume needs circle, rect, backdrop or svg")


def _sound(spec: Any, f: Fields) -> Sound:
    s = Fields(spec, f.where, f"{f.name('sounds')}.")
    return Sound.tone(
        s.text("name"), s.get("tone", (int, float), 440), s.get("seconds", (int, float), 0.5)
    )
