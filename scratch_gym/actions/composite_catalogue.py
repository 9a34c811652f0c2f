"""The composite-mode action catalogue: every API, its arguments and meaning, in one table.

``COMPOSITE_APIS`` is the single source of truth: :func:`parse_action` validates against it, and
:func:`composite_prompt` (agent prompts) and :func:`composite_actions_markdown` (the table in
docs/actions.md) are generated from it.
"""

from __future__ import annotations

import difflib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scratch_gym.actions.errors import ActionError

PLACEMENTS = ("stack_before", "stack_after", "statement_into", "value_into", "wrap")
SCOPES = ("sprite", "all")
MAX_TEXT = 10_000


@dataclass(frozen=True)
class Param:
    """One argument of an API: ``kind`` is ``index``, ``name``, ``names`` (a list of names),
    ``flag`` (true/false), ``opcode``, ``value`` or ``choice``."""

    name: str
    kind: str
    doc: str
    required: bool = True
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Api:
    name: str
    params: tuple[Param, ...]
    doc: str
    example: dict[str, Any]
    ends_episode: bool = False

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)


_INDEX = "a block's index in the latest observation"
COMPOSITE_APIS: tuple[Api, ...] = (
    Api(
        "select_sprite",
        (Param("name", "name", "the sprite's name"),),
        "Show the sprite's scripts (indices then refer to its blocks).",
        {"name": "Sprite1"},
    ),
    Api("select_stage", (), "Show the stage's scripts.", {}),
    Api(
        "add_variable",
        (
            Param("name", "name", "the new variable's name"),
            Param("scope", "choice", "`sprite` (this sprite only) or `all`", False, SCOPES),
        ),
        "Make a variable (scope defaults to `all`; the stage's variables are always `all`).",
        {"name": "score", "scope": "all"},
    ),
    Api(
        "add_list",
        (
            Param("name", "name", "the new list's name"),
            Param("scope", "choice", "`sprite` (this sprite only) or `all`", False, SCOPES),
        ),
        "Make a list (scope defaults to `all`).",
        {"name": "items", "scope": "sprite"},
    ),
    Api(
        "add_block",
        (
            Param("opcode", "opcode", "the block's opcode, e.g. `motion_movesteps`"),
            Param("variable", "name", "the variable of a variable block", False),
            Param("list", "name", "the list of a list block", False),
            Param("message", "name", "the broadcast message of a broadcast block", False),
            Param(
                "proccode",
                "name",
                "a custom block's text, `%s` for each number or text input and `%b` for each "
                "boolean input (e.g. `jump %s`): the new block of procedures_definition, the "
                "defined block of procedures_call",
                False,
            ),
            Param(
                "argument_names",
                "names",
                "procedures_definition: the inputs' names, one per `%s` / `%b` in order",
                False,
            ),
            Param("warp", "flag", "procedures_definition: run without screen refresh", False),
            Param(
                "argument",
                "name",
                "argument_reporter_string_number / _boolean: the name of an input of a custom "
                "block defined in this sprite",
                False,
            ),
        ),
        "Add a new block with its default inputs as a new script in free visible space; "
        "variable and list blocks use the named variable or list (default: the first). "
        "My Blocks: procedures_definition makes a custom block (`define ...`) as the Make a "
        "Block dialog does; procedures_call calls a defined one; argument reporters use its "
        "inputs inside its definition.",
        {"opcode": "data_changevariableby", "variable": "score"},
    ),
    Api(
        "connect_blocks",
        (
            Param("source", "index", "the block to move (it moves with the blocks below it)"),
            Param("target", "index", "the block to attach it to"),
            Param("placement", "choice", "where the source goes", choices=PLACEMENTS),
            Param(
                "input",
                "name",
                "the target's input for `statement_into` (SUBSTACK, SUBSTACK2; default "
                "SUBSTACK) and `value_into` (e.g. STEPS, CONDITION; default: its only input)",
                False,
            ),
        ),
        "`stack_before` / `stack_after`: above / below the target; `statement_into`: first "
        "in the target C-block's slot; `value_into`: a reporter or boolean into the target's "
        "input; `wrap`: the source C-block around the target and the blocks below it.",
        {"source": 3, "target": 2, "placement": "statement_into", "input": "SUBSTACK"},
    ),
    Api(
        "detach_blocks",
        (Param("index", "index", _INDEX),),
        "Take the block and all blocks below it out of their script; they become a new script.",
        {"index": 4},
    ),
    Api(
        "delete_block",
        (Param("index", "index", _INDEX),),
        "Delete the block with the blocks inside it; the blocks below it move up (deleting "
        "a hat block deletes its whole script).",
        {"index": 4},
    ),
    Api(
        "set_block_field",
        (
            Param("index", "index", _INDEX),
            Param("field", "name", "a field or literal input named in `fields`, e.g. STEPS"),
            Param("value", "value", "the new value (menus: display name or value)"),
        ),
        "Set a field, menu or literal input of a block.",
        {"index": 3, "field": "STEPS", "value": 20},
    ),
    Api("run_project", (), "Click the green flag.", {}),
    Api("stop_project", (), "Click the stop sign.", {}),
    Api("done", (), "Declare the task complete (ends the episode).", {}, True),
    Api("failed", (), "Declare the task impossible (ends the episode).", {}, True),
)
APIS: dict[str, Api] = {a.name: a for a in COMPOSITE_APIS}
# add_block's options that only some opcodes take (variable, list and message follow the
# block's own variable fields); every other opcode refuses them.
PROCEDURE_OPTIONS: dict[str, tuple[str, ...]] = {
    "procedures_definition": ("proccode", "argument_names", "warp"),
    "procedures_call": ("proccode",),
    "argument_reporter_string_number": ("argument",),
    "argument_reporter_boolean": ("argument",),
}
REQUIRED_OPTIONS: dict[str, tuple[str, ...]] = {
    "procedures_definition": ("proccode",),
    "procedures_call": ("proccode",),
    "argument_reporter_string_number": ("argument",),
    "argument_reporter_boolean": ("argument",),
}
MAX_NAMES = 64


@dataclass(frozen=True)
class CompositeAction:
    """A validated action: the API name and its arguments (indices as int)."""

    api: str
    args: dict[str, Any]

    @property
    def type(self) -> str:
        return self.api

    def to_dict(self) -> dict[str, Any]:
        return {"api": self.api, "args": dict(self.args)}


def _suggest(word: str, allowed: list[str]) -> str:
    close = difflib.get_close_matches(word, allowed, n=3, cutoff=0.6)
    return f" (did you mean {', '.join(close)}?)" if close else ""


def _index(api: str, p: Param, value: Any) -> int:
    if isinstance(value, str) and value.strip().lstrip("#").isdigit():
        value = int(value.strip().lstrip("#"))
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ActionError(f"{api}: `{p.name}` must be a block index (a whole number >= 1)")
    if value < 1:
        raise ActionError(f"{api}: `{p.name}` must be >= 1 (blocks are numbered from 1)")
    return value


def _check(api: Api, p: Param, value: Any) -> Any:
    where = f"{api.name}: `{p.name}`"
    if p.kind == "index":
        return _index(api.name, p, value)
    if p.kind == "flag":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        raise ActionError(f"{where} must be true or false")
    if p.kind == "names":
        if not isinstance(value, (list, tuple)) or len(value) > MAX_NAMES:
            raise ActionError(f"{where} must be a list of at most {MAX_NAMES} names")
        names = []
        for item in value:
            if not isinstance(item, str) or not item.strip() or len(item) > MAX_TEXT:
                raise ActionError(f"{where}: each name must be a non-empty string")
            names.append(item.strip())
        return names
    if p.kind == "value":
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise ActionError(f"{where} must be a string or a number")
        if isinstance(value, float) and not math.isfinite(value):
            raise ActionError(f"{where} must be a finite number")
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        text = str(value)
        if len(text) > MAX_TEXT:
            raise ActionError(f"{where} is longer than {MAX_TEXT} characters")
        return text
    if not isinstance(value, str):
        raise ActionError(f"{where} must be a string")
    if p.kind == "choice" and value not in p.choices:
        raise ActionError(
            f"{where} must be one of {', '.join(p.choices)}, not {value!r}"
            + _suggest(value, list(p.choices))
        )
    if p.kind == "name" and not value.strip():
        raise ActionError(f"{where} must not be empty")
    if len(value) > MAX_TEXT:
        raise ActionError(f"{where} is longer than {MAX_TEXT} characters")
    return value


def parse_action(raw: Any) -> CompositeAction:
    """Validate a raw action (JSON text or a mapping) against the catalogue's shapes."""
    if isinstance(raw, (bytes, bytearray)):
        raw = raw.decode("utf-8", "replace")
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ActionError(
                f"the action is not valid JSON ({exc.msg} at column {exc.colno}); "
                'write one object such as {"api": "add_block", "args": {"opcode": '
                '"motion_movesteps"}}'
            ) from None
    if not isinstance(raw, Mapping):
        raise ActionError(
            f'the action must be a JSON object {{"api": ..., "args": {{...}}}}, '
            f"not {type(raw).__name__}"
        )
    extra = sorted(set(raw) - {"api", "args"})
    if extra:
        raise ActionError(f"unknown keys {extra} in the action; allowed: api, args")
    name = raw.get("api")
    if not isinstance(name, str) or name not in APIS:
        shown = name if isinstance(name, str) else repr(name)
        hint = _suggest(name, list(APIS)) if isinstance(name, str) else ""
        raise ActionError(f"unknown api {shown}{hint}; allowed: {', '.join(APIS)}")
    api = APIS[name]
    args = raw.get("args", {})
    if args is None:
        args = {}
    if not isinstance(args, Mapping):
        raise ActionError(f"{name}: `args` must be an object, not {type(args).__name__}")
    allowed = [p.name for p in api.params]
    unknown = sorted(set(args) - set(allowed))
    if unknown:
        raise ActionError(
            f"{name}: unknown argument(s) {', '.join(map(str, unknown))}; "
            f"allowed: {', '.join(allowed) or '(none)'}"
        )
    out: dict[str, Any] = {}
    for p in api.params:
        if args.get(p.name) is None:
            if p.required:
                raise ActionError(f"{name}: missing argument `{p.name}` ({p.doc})")
            continue
        out[p.name] = _check(api, p, args[p.name])
    return CompositeAction(name, out)


def _signature(api: Api) -> str:
    parts = [p.name if p.required else f"{p.name}?" for p in api.params]
    return f"{api.name} {{{', '.join(parts)}}}"


def composite_prompt() -> str:
    """The action reference for an agent's prompt."""
    lines = [
        'Act with one JSON object per step: {"api": NAME, "args": {...}}. Indices are the '
        "block numbers of the latest observation's pseudocode (they change after edits).",
        "",
    ]
    for api in COMPOSITE_APIS:
        lines.append(f"- {_signature(api)}: {api.doc}")
        for p in api.params:
            choices = f" One of: {', '.join(p.choices)}." if p.choices else ""
            lines.append(f"    {p.name}: {p.doc}.{choices}")
        example = json.dumps({"api": api.name, "args": api.example})
        lines.append(f"    e.g. {example}")
    return "\n".join(lines)


def composite_actions_markdown() -> str:
    """The table of composite actions (docs/actions.md)."""
    rows = ["| api | args | meaning | example |", "| --- | --- | --- | --- |"]
    for api in COMPOSITE_APIS:
        args = ", ".join(f"`{p.name}`" + ("" if p.required else " (optional)") for p in api.params)
        example = json.dumps({"api": api.name, "args": api.example})
        doc = api.doc.replace("|", "\\|")
        rows.append(f"| `{api.name}` | {args or '-'} | {doc} | `{example}` |")
    return "\n".join(rows)
