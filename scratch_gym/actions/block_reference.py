"""The block reference of composite mode: every block ``add_block`` makes, from the block
catalogue (``scratch_gym/program/catalogue.json``, the single source of truth).

For each block: its opcode, category, shape, scratchblocks text, the sprites or stage it is
for, its fields (dropdowns and variable, list or message names on the block), its inputs (slots
that take a value or a reporter; a menu input takes one of its choices or a reporter) and, for
C-blocks, its statement slots. A menu choice that only sprites or only the stage offer says so
(``only_for``; for ``sensing_of``'s PROPERTY: the kind of object chosen in OBJECT). Three
renderings: :func:`reference_json` (``scratch-gym blocks
--json``), :func:`reference_markdown` (``docs/blocks.md``, written by ``python -m
scratch_gym.docs``; ``scratch-gym blocks`` prints the same tables as text) and
:func:`reference_prompt` (the compact list an LLM agent's composite prompt can carry:
``make_agent("llm", "composite", block_reference=True)``).
"""

from __future__ import annotations

import difflib
from typing import Any

from scratch_gym.actions.composite_catalogue import PROCEDURE_OPTIONS
from scratch_gym.program import catalogue
from scratch_gym.program.blockdefs import Arg, BlockSpec

FIELD_KINDS = frozenset({"field", "variable"})  # on the block itself; every other kind is an input
MAX_SHOWN_CHOICES = 8  # in the tables; the JSON lists them all
ONLY = {"sprite": "sprites only", "stage": "stage only"}
OF = {"sprite": "of a sprite", "stage": "of the stage"}  # sensing_of's PROPERTY, by its OBJECT
DYNAMIC = {  # what a dynamic menu lists besides its fixed choices
    "sprite": "a sprite's name",
    "costume": "a costume name",
    "backdrop": "a backdrop name",
    "sound": "a sound name",
    "broadcast": "a message name",
    "variable": "a variable name",
    "list": "a list name",
    "property": "a property of the chosen sprite or the stage",
}
VARIABLE_TYPES = {"": "a variable name", "list": "a list name", "broadcast_msg": "a message name"}
# The catalogue lists a block's menu once, as a sprite's editor shows it. Choices that only
# sprites offer (the stage's menu lacks them), and choices the editor's menu does not offer at all
# (the catalogue keeps them so that programs written with them parse; editor/catalogue_builder.py).
TARGET_ONLY_CHOICES: dict[tuple[str, str, str], str] = {
    ("control_create_clone_of", "CLONE_OPTION", "_myself_"): "sprite",
}
NOT_IN_THE_EDITOR = frozenset({("control_stop", "STOP_OPTION", "other scripts in stage")})


def blocks(category: str | None = None) -> list[BlockSpec]:
    """The blocks ``add_block`` makes, in catalogue order (toolbox order), of one ``category``
    or all. ValueError for an unknown category: ``unknown category 'x' (allowed: ...)``."""
    from scratch_gym.actions.composite import addable

    if category is not None and category not in categories():
        close = difflib.get_close_matches(category, categories(), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise ValueError(
            f"unknown category {category!r} (allowed: {', '.join(categories())}{hint})"
        )
    return [b for b in catalogue if addable(b) and category in (None, b.category)]


def categories() -> list[str]:
    """The catalogue's categories, in toolbox order."""
    return catalogue.categories


def _editor_choices(spec: BlockSpec, arg: Arg) -> list[tuple[str, str]]:
    """The menu's (display, value) choices that the editor offers (and set_block_field takes)."""
    return [o for o in arg.options if (spec.opcode, arg.name, o[1]) not in NOT_IN_THE_EDITOR]


def _only_for(spec: BlockSpec, arg: Arg, value: str) -> str | None:
    """``sprite`` or ``stage`` when only that kind of target offers the choice ``value``; for
    ``sensing_of``'s PROPERTY, the kind of object (OBJECT) that has the property."""
    if spec.opcode == "sensing_of" and arg.name == "PROPERTY":
        kinds = [k for k, props in catalogue.sensing_of_properties.items() if value in props]
        return kinds[0] if len(kinds) == 1 else None
    return TARGET_ONLY_CHOICES.get((spec.opcode, arg.name, value))


def _arg_json(spec: BlockSpec, arg: Arg) -> dict[str, Any]:
    out: dict[str, Any] = {"name": arg.name, "kind": arg.kind, "default": arg.default}
    if arg.options:
        out["choices"] = []
        for display, value in _editor_choices(spec, arg):
            choice = {"display": display, "value": value}
            only = _only_for(spec, arg, value)
            if only:
                choice["only_for"] = only
            out["choices"].append(choice)
    if arg.dynamic:
        out["dynamic"] = arg.dynamic
    if arg.variable_type is not None:
        out["names"] = {"": "variable", "list": "list", "broadcast_msg": "message"}.get(
            arg.variable_type, arg.variable_type
        )
    return out


def block_json(spec: BlockSpec) -> dict[str, Any]:
    """One block's entry of the reference."""
    return {
        "opcode": spec.opcode,
        "category": spec.category,
        "shape": spec.shape,
        "scratchblocks": spec.scratchblocks,
        "targets": list(spec.targets),
        "fields": [_arg_json(spec, a) for a in spec.args if a.kind in FIELD_KINDS],
        "inputs": [_arg_json(spec, a) for a in spec.args if a.kind not in FIELD_KINDS],
        "statements": list(spec.statements),
        "add_block_options": list(_options(spec)),
    }


def _options(spec: BlockSpec) -> tuple[str, ...]:
    from scratch_gym.actions.composite import add_block_options

    return add_block_options(spec)


def reference_json(category: str | None = None) -> dict[str, Any]:
    """The reference as one JSON object: ``categories``, ``count`` and ``blocks``."""
    entries = [block_json(b) for b in blocks(category)]
    return {
        "categories": [category] if category else categories(),
        "count": len(entries),
        "blocks": entries,
    }


# -- tables ---------------------------------------------------------------------------------------
def _choices(spec: BlockSpec, arg: Arg) -> str:
    shown = []
    choices = _editor_choices(spec, arg)
    for display, value in choices[:MAX_SHOWN_CHOICES]:
        only = _only_for(spec, arg, value)
        labels = OF if spec.opcode == "sensing_of" else ONLY
        shown.append(f"{display} ({labels[only]})" if only else display)
    if len(choices) > MAX_SHOWN_CHOICES:
        shown.append(f"... {len(choices) - MAX_SHOWN_CHOICES} more")
    if arg.dynamic:
        shown.append(DYNAMIC.get(arg.dynamic, arg.dynamic))
    if arg.variable_type is not None:
        shown.append(VARIABLE_TYPES.get(arg.variable_type, "a name"))
    return ", ".join(shown)


def _arg_text(spec: BlockSpec, arg: Arg) -> str:
    """``STEPS`` number (10); ``KEY_OPTION`` menu: space, up arrow, ..."""
    if arg.kind in ("field", "menu", "variable"):
        return f"{arg.name} {'menu' if arg.kind != 'variable' else 'name'}: {_choices(spec, arg)}"
    if arg.kind == "boolean":
        return f"{arg.name} boolean"
    if arg.kind == "broadcast":
        return f"{arg.name} message: {_choices(spec, arg) or 'a message name'}"
    default = f" ({arg.default})" if arg.default else ""
    return f"{arg.name} {arg.kind}{default}"


def block_row(spec: BlockSpec) -> tuple[str, str, str, str, str, str]:
    """(opcode, scratchblocks, shape, fields, inputs, add_block options) as text."""
    shape = spec.shape
    if tuple(spec.targets) == ("sprite",):
        shape += ", sprites only"
    elif tuple(spec.targets) == ("stage",):
        shape += ", stage only"
    fields = "; ".join(_arg_text(spec, a) for a in spec.args if a.kind in FIELD_KINDS)
    inputs = [_arg_text(spec, a) for a in spec.args if a.kind not in FIELD_KINDS]
    inputs += [f"{s} script" for s in spec.statements]
    options = ", ".join(_options(spec))
    return spec.opcode, spec.scratchblocks, shape, fields, "; ".join(inputs), options


def _cell(text: str) -> str:
    return f"`{text}`".replace("|", "\\|") if text else ""


def reference_markdown() -> str:
    """``docs/blocks.md``: one table per category."""
    out = [
        "# Block reference",
        "",
        "Generated from the block catalogue (`scratch_gym/program/catalogue.json`, read from the "
        "pinned editor) by `python -m scratch_gym.docs`; `scratch-gym blocks [--category C] "
        "[--json]` prints the same. These are the blocks composite mode's `add_block` makes "
        f"({len(blocks())} in {len(categories())} categories).",
        "",
        '- **opcode**: what `add_block` takes (`{"api": "add_block", "args": {"opcode": '
        '"motion_movesteps"}}`).',
        "- **scratchblocks**: the block as the composite observation and the program model "
        "write it, with its default values.",
        "- **shape**: `hat`, `stack`, `cap`, `c1` / `c2` (C-blocks with one or two statement "
        "slots), `reporter`, `boolean`; and whether only sprites or only the stage have it.",
        "- **fields**: dropdowns and variable, list or message names on the block itself.",
        "- **inputs**: slots that take a value or a reporter (`value_into`; a menu input takes "
        "one of its choices or a reporter), and C-blocks' statement slots (`statement_into`). "
        "`set_block_field` sets a field or a literal input by its name.",
        "- **add_block options**: what `add_block` takes besides `opcode` for this block: the "
        "variable, list or message its fields name (default: the first), or My Blocks' "
        "`proccode`, `argument_names`, `warp` and `argument`.",
        "",
        "An LLM agent's composite prompt can carry this list in short: "
        '`make_agent("llm", "composite", block_reference=True)`.',
    ]
    for category in categories():
        specs = blocks(category)
        if not specs:
            continue
        out += ["", f"## {category} ({len(specs)})", ""]
        out += [
            "| opcode | scratchblocks | shape | fields | inputs | add_block options |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for spec in specs:
            opcode, text, shape, fields, inputs, options = block_row(spec)
            out.append(
                f"| `{opcode}` | {_cell(text)} | {shape} | {_md(fields)} | {_md(inputs)} "
                f"| {options} |"
            )
    return "\n".join(out) + "\n"


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def reference_prompt() -> str:
    """The reference for an LLM's composite prompt: per category, one line per block with its
    opcode, its scratchblocks text, and its field and input names."""
    out = [
        "## Blocks",
        "Every block add_block makes, by category: `opcode: scratchblocks text`, then its "
        "fields and inputs by name (for set_block_field and connect_blocks' `input`).",
    ]
    for category in categories():
        specs = blocks(category)
        if not specs:
            continue
        out.append(f"### {category}")
        for spec in specs:
            line = f"{spec.opcode}: {spec.scratchblocks}"
            fields = [a.name for a in spec.args if a.kind in FIELD_KINDS]
            inputs = [a.name for a in spec.args if a.kind not in FIELD_KINDS]
            inputs += list(spec.statements)
            if fields:
                line += f"; fields {', '.join(fields)}"
            if inputs:
                line += f"; inputs {', '.join(inputs)}"
            if spec.opcode in PROCEDURE_OPTIONS:
                line += f"; add_block options {', '.join(PROCEDURE_OPTIONS[spec.opcode])}"
            out.append(line)
    return "\n".join(out)
