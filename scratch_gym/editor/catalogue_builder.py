"""Regenerate ``catalogue.json`` from the pinned editor's own block definitions.

    python -m scratch_gym.editor.catalogue_builder [--out PATH]

Opens the editor headless, loads a setup project (two sprites, a variable, a list, a broadcast,
a custom block, the Pen extension) so that every block of the toolbox shows in the flyout, and
describes each flyout block for a sprite and for the stage: connections (hence the shape),
labels, inputs with their shadow blocks and defaults, fields with their menu choices. Menu
choices that are names from the setup project become ``dynamic`` menus of that kind. The
scratchblocks pattern is derived from the English message, with the icons and corrections of
:mod:`scratch_gym.program.spellings`. My Blocks and the variable/list reporters, whose text is
not a message, are added as ``structural`` entries.
"""

from __future__ import annotations

import argparse
import copy
import json
from pathlib import Path
from typing import Any

from scratch_gym.program import spellings
from scratch_gym.program.blockdefs import CATALOGUE_PATH, NUMBER_SHADOWS, parse_pattern

SETUP_NAMES = {
    "sprite": {"Sprite1", "Sprite2"},
    "costume": {"costume1", "costume2"},
    "backdrop": {"backdrop1"},
    "sound": {"Meow", "pop"},
    "broadcast": {"message1"},
    "variable": {"my variable", "stage var"},
    "list": {"my list", "stage list"},
}
UI_ACTIONS = {"SOUND_RECORD"}  # menu entries that are editor actions, not values
CATEGORIES = {
    "motion": "motion",
    "looks": "looks",
    "sound": "sound",
    "event": "events",
    "control": "control",
    "sensing": "sensing",
    "operator": "operators",
    "data": "variables",
    "procedures": "myblocks",
    "argument": "myblocks",
    "pen": "pen",
}


def setup_project() -> dict[str, Any]:
    """The project loaded before reading the flyout: it makes every toolbox block appear."""
    from scratch_gym.program.projects import empty_project

    project = empty_project()
    stage, sprite = project["targets"]
    stage["variables"] = {"setup-v2": ["stage var", 0]}
    stage["broadcasts"] = {"setup-b1": "message1"}
    stage["lists"] = {"setup-l2": ["stage list", []]}
    sprite["variables"] = {"setup-v1": ["my variable", 0]}
    sprite["lists"] = {"setup-l1": ["my list", []]}
    mutation = {
        "tagName": "mutation",
        "children": [],
        "proccode": "block %s %b",
        "argumentids": '["a1","a2"]',
        "argumentnames": '["a","b"]',
        "argumentdefaults": '["","false"]',
        "warp": "false",
    }
    sprite["blocks"] = {
        "def": {
            "opcode": "procedures_definition",
            "next": None,
            "parent": None,
            "inputs": {"custom_block": [1, "proto"]},
            "fields": {},
            "shadow": False,
            "topLevel": True,
            "x": 0,
            "y": 0,
        },
        "proto": {
            "opcode": "procedures_prototype",
            "next": None,
            "parent": "def",
            "inputs": {"a1": [1, "arg1"], "a2": [1, "arg2"]},
            "fields": {},
            "shadow": True,
            "topLevel": False,
            "mutation": mutation,
        },
        "arg1": _arg_block("argument_reporter_string_number", "a", "proto"),
        "arg2": _arg_block("argument_reporter_boolean", "b", "proto"),
    }
    second = copy.deepcopy(sprite)
    second.update(name="Sprite2", variables={}, lists={}, blocks={}, layerOrder=2)
    project["targets"].append(second)
    project["extensions"] = ["pen"]
    return project


def _arg_block(opcode: str, name: str, parent: str) -> dict[str, Any]:
    return {
        "opcode": opcode,
        "next": None,
        "parent": parent,
        "inputs": {},
        "fields": {"VALUE": [name, None]},
        "shadow": True,
        "topLevel": False,
    }


def extract(page=None) -> dict[str, Any]:
    """The raw block descriptions from the editor (opens a page unless one is given)."""
    from scratch_gym.editor.page import EditorPage

    own = page is None
    page = page or EditorPage().open()
    try:
        return page.call(
            "catalogue.extract",
            {
                "project": json.dumps(setup_project()),
                "require": {
                    "sprite": ["data_listcontents", "procedures_call", "pen_setPenSizeTo"],
                    "stage": ["data_listcontents", "pen_clear"],
                },
                "of_sprite": "Sprite1",
            },
        )
    finally:
        if own:
            page.close()


# -- conversion ---------------------------------------------------------------------------------
def _dynamic_kind(values: list[str]) -> str | None:
    for kind, names in SETUP_NAMES.items():
        if any(v in names for v in values):
            return kind
    return None


def _menu(options: list, default: str) -> dict[str, Any]:
    """Static options and the dynamic kind of a dropdown's raw options."""
    values = [v for _, v in options]
    dynamic = _dynamic_kind(values + [default])
    names = set().union(*SETUP_NAMES.values())
    static = []
    for label, value in options:
        if value in names or value in UI_ACTIONS:
            continue
        display = label if isinstance(label, str) else (label.get("alt") or value)
        static.append([display, value])
    out: dict[str, Any] = {"options": static}
    if dynamic:
        out["dynamic"] = dynamic
    return out


def _icon_word(part: dict[str, Any]) -> str | None:
    src = part["image"]
    if src.startswith("data:"):
        return None  # an extension's icon
    name = src.rsplit("/", 1)[-1]
    if name not in spellings.ICONS:
        raise ValueError(f"an icon with no reviewed spelling: {name} (add it to spellings.ICONS)")
    return spellings.ICONS[name]


def _arg_from_input(part: dict[str, Any]) -> dict[str, Any]:
    name = part["input"]
    shadow = part.get("shadow")
    if shadow is None:
        return {"name": name, "kind": "boolean"}
    op = shadow["opcode"]
    fields = [p for p in shadow["parts"] if "field" in p]
    value = str(fields[0].get("value", "")) if fields else ""
    if op in NUMBER_SHADOWS:
        kind = {"math_angle": "angle", "text": "text", "colour_picker": "colour"}.get(op, "number")
        default = spellings.FIXED_DEFAULTS.get(op, value)
        return {
            "name": name,
            "kind": kind,
            "shadow": op,
            "field": fields[0]["field"],
            "default": default,
        }
    field = fields[0]
    if field["kind"] == "variable":
        return {
            "name": name,
            "kind": "broadcast",
            "shadow": op,
            "field": field["field"],
            "default": field["value"],
            "variable_type": field["variable_type"],
        }
    arg = {"name": name, "kind": "menu", "shadow": op, "field": field["field"], "default": value}
    arg.update(_menu(field.get("options", []), value))
    return arg


def _arg_from_field(part: dict[str, Any]) -> dict[str, Any]:
    if part["kind"] == "variable":
        vtype = part["variable_type"]
        return {
            "name": part["field"],
            "kind": "variable",
            "field": part["field"],
            "default": part["value"],
            "variable_type": vtype,
        }
    arg = {"name": part["field"], "kind": "field", "field": part["field"], "default": part["value"]}
    arg.update(_menu(part.get("options", []), part["value"]))
    return arg


def _shape(desc: dict[str, Any], n_statements: int) -> str:
    if desc["output"]:
        return "boolean" if desc["output_check"] == ["Boolean"] else "reporter"
    if not desc["previous"]:
        return "hat"
    if n_statements:
        return f"c{n_statements}"
    return "stack" if desc["next"] else "cap"


def _slot_text(arg: dict[str, Any]) -> str:
    kind, default = arg["kind"], arg.get("default", "")
    if kind in ("number", "angle"):
        return f"({default})"
    if kind in ("text", "colour"):
        return f"[{default}]"
    if kind == "boolean":
        return "<>"
    display = default
    for label, value in arg.get("options", []):
        if value == default:
            display = label
    if kind in ("menu", "broadcast"):
        return f"({display} v)"
    return f"[{display} v]"


def convert_block(desc: dict[str, Any]) -> dict[str, Any]:
    """One catalogue entry from the editor's description of a block."""
    opcode = desc["opcode"]
    args: list[dict[str, Any]] = []
    statements: list[str] = []
    words: list[str] = []
    for part in desc["parts"]:
        if "label" in part:
            words.append(part["label"])
        elif "image" in part:
            word = _icon_word(part)
            if word:
                words.append(word)
        elif "statement" in part:
            statements.append(part["statement"])
        elif "input" in part:
            args.append(_arg_from_input(part))
            words.append(_slot_text(args[-1]))
        else:
            args.append(_arg_from_field(part))
            words.append(_slot_text(args[-1]))
    pattern = spellings.STANDARD.get(opcode, " ".join(words).replace(" ?", "?"))
    entry: dict[str, Any] = {
        "opcode": opcode,
        "category": CATEGORIES[opcode.split("_", 1)[0]],
        "shape": _shape(desc, len(statements)),
        "args": args,
        "statements": statements,
        "scratchblocks": pattern,
    }
    if opcode in spellings.ALIASES:
        entry["aliases"] = spellings.ALIASES[opcode]
    if opcode in spellings.NL2SCRATCH:
        entry["nl2scratch"] = spellings.NL2SCRATCH[opcode]
    for text in [pattern, *entry.get("aliases", []), entry.get("nl2scratch") or pattern]:
        slots = sum(p is None for p in parse_pattern(text).parts)
        if slots != len(args):
            raise ValueError(f"{opcode}: pattern {text!r} has {slots} slots, needs {len(args)}")
    return entry


STRUCTURAL: dict[str, dict[str, Any]] = {
    "data_variable": {
        "category": "variables",
        "shape": "reporter",
        "args": [
            {"name": "VARIABLE", "kind": "variable", "field": "VARIABLE", "variable_type": ""}
        ],
        "scratchblocks": "(my variable)",
    },
    "data_listcontents": {
        "category": "variables",
        "shape": "reporter",
        "args": [{"name": "LIST", "kind": "variable", "field": "LIST", "variable_type": "list"}],
        "scratchblocks": "(my list :: list)",
    },
    "procedures_definition": {
        "category": "myblocks",
        "shape": "hat",
        "args": [],
        "scratchblocks": "define block (a) <b>",
    },
    "procedures_prototype": {
        "category": "myblocks",
        "shape": "prototype",
        "args": [],
        "scratchblocks": "block (a) <b>",
    },
    "procedures_call": {
        "category": "myblocks",
        "shape": "stack",
        "args": [],
        "scratchblocks": "block [] <>",
    },
    "argument_reporter_string_number": {
        "category": "myblocks",
        "shape": "reporter",
        "args": [{"name": "VALUE", "kind": "text", "field": "VALUE"}],
        "scratchblocks": "(a)",
    },
    "argument_reporter_boolean": {
        "category": "myblocks",
        "shape": "boolean",
        "args": [{"name": "VALUE", "kind": "text", "field": "VALUE"}],
        "scratchblocks": "<b>",
    },
}


def build(raw: dict[str, Any]) -> dict[str, Any]:
    """The catalogue data from the raw extraction."""
    blocks: dict[str, dict[str, Any]] = {}
    seen_in: dict[str, list[str]] = {}
    for target in ("sprite", "stage"):
        for desc in raw["targets"][target]:
            opcode = desc["opcode"]
            if opcode in STRUCTURAL:
                continue
            seen_in.setdefault(opcode, [])
            if target not in seen_in[opcode]:
                seen_in[opcode].append(target)
            if opcode not in blocks:
                blocks[opcode] = convert_block(desc)
    for opcode, entry in blocks.items():
        entry["targets"] = seen_in[opcode]
    if "control_stop" in blocks:
        blocks["control_stop"]["extra"] = {
            "stack_when": ["other scripts in sprite", "other scripts in stage"]
        }
        opts = blocks["control_stop"]["args"][0]["options"]
        if ["other scripts in stage", "other scripts in stage"] not in opts:
            opts.append(["other scripts in stage", "other scripts in stage"])
    for opcode, entry in STRUCTURAL.items():
        blocks[opcode] = {"opcode": opcode, **entry, "statements": [], "source": "structural"}
    stage_props = []
    for desc in raw["targets"]["stage"]:
        if desc["opcode"] == "sensing_of":
            prop = next(p for p in desc["parts"] if p.get("field") == "PROPERTY")
            stage_props = [v for _, v in prop["options"] if v not in SETUP_NAMES["variable"]]
    sprite_props = [
        v for v in raw.get("of_sprite_properties", []) if v not in SETUP_NAMES["variable"]
    ]
    of_prop = blocks["sensing_of"]["args"][0]
    of_prop["options"] = [[v, v] for v in dict.fromkeys(sprite_props + stage_props)]
    of_prop["dynamic"] = "property"
    return {
        "editor": {
            "scratch_gui": "15.2.0",
            "scratch_blocks": raw.get("scratch_blocks_version"),
            "generated_by": "python -m scratch_gym.editor.catalogue_builder",
        },
        "sensing_of_properties": {"sprite": sprite_props, "stage": stage_props},
        "blocks": blocks,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=CATALOGUE_PATH)
    args = parser.parse_args(argv)
    data = build(extract())
    args.out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(data['blocks'])} blocks to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
