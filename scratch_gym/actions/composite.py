"""Composite mode: semantic edits of the program, executed in the real editor.

An action is one JSON object ``{"api": NAME, "args": {...}}`` (text, or a dict); the APIs are in
``composite_catalogue.COMPOSITE_APIS``. Block indices refer to the latest observation: the
numbering (``program.numbering``) is a pure function of the editing target's blocks, so
:meth:`CompositeActionModel.execute` re-derives it from the VM before each edit, which gives the
observation's numbers as long as nothing changed the VM in between (nothing does between steps).
The edit itself runs in the page (``bridge/composite.js``) through the Blockly workspace API, so
the GUI's listeners update the VM as for a user's edit. Invalid edits raise ActionError before
anything changes. Custom blocks (My Blocks) are made as the editor's Make a Block dialog and
palette make them: a define block from a prototype mutation, calls from that mutation.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from typing import Any

from scratch_gym.actions.composite_catalogue import (
    APIS,
    PROCEDURE_OPTIONS,
    REQUIRED_OPTIONS,
    CompositeAction,
    composite_prompt,
    parse_action,
)
from scratch_gym.actions.errors import ActionError
from scratch_gym.editor.bridge import Edit, EditingBlocks
from scratch_gym.editor.page import BridgeError, EditorPage
from scratch_gym.program import catalogue
from scratch_gym.program.blockdefs import Arg, BlockSpec
from scratch_gym.program.numbering import (
    NumberedProgram,
    call_arguments,
    number_blocks,
    procedures,
)
from scratch_gym.program.values import is_number
from scratch_gym.spaces import UnicodeText

VALUE_INPUT_KINDS = frozenset({"number", "angle", "text", "colour", "menu", "broadcast", "boolean"})
RELATIONS = {
    "stack_before": "above",
    "stack_after": "below",
    "statement_into": "inside",
    "value_into": "into",
    "wrap": "around",
}


ADDABLE_STRUCTURAL = frozenset({"data_variable", "data_listcontents", *PROCEDURE_OPTIONS})
PLACEHOLDER = re.compile(r"%([a-zA-Z])")


def addable(spec: BlockSpec) -> bool:
    """Blocks that add_block makes: the toolbox's, variable and list reporters, My Blocks."""
    return spec.source == "editor" or spec.opcode in ADDABLE_STRUCTURAL


NAME_OPTIONS = ("variable", "list", "message")


def name_options(spec: BlockSpec) -> tuple[str, ...]:
    """The add_block options that name what a block's fields refer to (``variable``, ``list``,
    ``message``): those of its own variable, list and message fields and inputs."""
    wanted = {
        "variable": any(a.kind == "variable" and a.variable_type == "" for a in spec.args),
        "list": any(a.kind == "variable" and a.variable_type == "list" for a in spec.args),
        "message": any(
            a.kind == "broadcast" or a.variable_type == "broadcast_msg" for a in spec.args
        ),
    }
    return tuple(option for option in NAME_OPTIONS if wanted[option])


def add_block_options(spec: BlockSpec) -> tuple[str, ...]:
    """The options add_block takes for ``spec`` besides ``opcode``: My Blocks' (proccode, ...)
    or the names of its variable, list or message."""
    return PROCEDURE_OPTIONS.get(spec.opcode, ()) or name_options(spec)


class CompositeActionModel:
    """Text actions ``{"api": ..., "args": {...}}`` -> edits in the editor (see module doc)."""

    prompt = staticmethod(composite_prompt)
    settle_frames = 0  # edits are done once the workspace agrees with the VM (no paint needed)
    defers_flyout = True  # the flyout is rebuilt only when something looks at it

    def __init__(self) -> None:
        self.space = UnicodeText()
        self._handlers: dict[str, Callable[[EditorPage, dict[str, Any]], str]] = {
            "select_sprite": self._select_sprite,
            "select_stage": self._select_stage,
            "add_variable": self._add_variable,
            "add_list": self._add_variable,
            "add_block": self._add_block,
            "connect_blocks": self._connect,
            "detach_blocks": self._detach,
            "delete_block": self._delete,
            "set_block_field": self._set_field,
            "run_project": self._run,
            "stop_project": self._stop,
        }
        self._api = ""
        self.made_id: str | None = None  # the block the last add_block made

    # -- ActionModel protocol ------------------------------------------------------------------
    def parse(self, raw: Any) -> CompositeAction:
        action = parse_action(raw)
        if action.api == "add_block":
            self._check_opcode(action.args["opcode"])
        return action

    def use_elements(self, source: Any) -> None:
        """Composite actions name blocks by number, not screen elements: nothing to look up."""

    def ends_episode(self, parsed: CompositeAction) -> bool:
        return APIS[parsed.api].ends_episode

    def runs_scripts(self, parsed: CompositeAction) -> bool:
        # Edits reach the VM through workspace events, without its frame loop (which redraws the
        # stage every tick); only the green flag starts scripts.
        return parsed.api == "run_project"

    def execute(self, page: EditorPage, parsed: CompositeAction) -> dict[str, Any]:
        self._api = parsed.api
        self.made_id = None
        args = dict(parsed.args)
        if parsed.api == "add_list":
            args["type"] = "list"
        result = self._handlers[parsed.api](page, args)
        return {"executed_action": parsed.to_dict(), "clipped": [], "action_result": result}

    # -- helpers -------------------------------------------------------------------------------
    @contextmanager
    def _refused(self, context: str = "") -> Iterator[None]:
        """The editor's refusal of an edit (invalid action, stale index) as an ActionError."""
        try:
            yield
        except BridgeError as exc:
            if exc.kind in ("invalid_action", "stale_index"):
                raise ActionError(f"{self._api}: {context}{exc}") from None
            raise

    @staticmethod
    def _check_opcode(opcode: str) -> BlockSpec:
        spec = catalogue.get(opcode)
        if spec is None or not addable(spec):
            names = [s.opcode for s in catalogue if addable(s)]
            close = difflib.get_close_matches(opcode, names, n=3, cutoff=0.6)
            hint = f" Did you mean {', '.join(close)}?" if close else ""
            why = f"unknown opcode {opcode!r}"
            if spec is not None:
                why = f"{opcode!r} is part of a define block (add procedures_definition)"
            raise ActionError(
                f"add_block: {why}.{hint} Addable opcodes are the toolbox's "
                f"({len(names)}), by category: "
                + "; ".join(
                    f"{cat}: {', '.join(s.opcode for s in catalogue.by_category(cat) if addable(s))}"
                    for cat in catalogue.categories
                    if any(addable(s) for s in catalogue.by_category(cat))
                )
            )
        return spec

    @staticmethod
    def _program(page: EditorPage) -> tuple[EditingBlocks, NumberedProgram]:
        state = page.bridge.composite_blocks()
        return state, number_blocks(state["blocks"])

    def _resolve(self, program: NumberedProgram, state: EditingBlocks, index: int) -> str:
        if not 1 <= index <= len(program):
            who = f"the {'stage' if state['is_stage'] else 'sprite ' + str(state['target'])}"
            have = f"blocks 1..{len(program)}" if len(program) else "no blocks"
            raise ActionError(
                f"{self._api}: index {index} is out of range; {who} has {have} "
                "(numbers from the latest observation)"
            )
        return program.id_of(index)

    # -- handlers (each returns the success message) -------------------------------------------
    def _select_sprite(self, page: EditorPage, args: dict[str, Any]) -> str:
        with self._refused():
            name = page.bridge.composite_select(args["name"])
        return f"selected sprite {name}"

    def _select_stage(self, page: EditorPage, args: dict[str, Any]) -> str:
        with self._refused():
            page.bridge.composite_select(stage=True)
        return "selected the stage"

    def _add_variable(self, page: EditorPage, args: dict[str, Any]) -> str:
        kind = args.get("type", "")
        scope = args.get("scope", "all")
        with self._refused():
            made = page.bridge.composite_add_variable(args["name"], kind, scope == "sprite")
        what = "list" if kind == "list" else "variable"
        where = "for this sprite only" if scope == "sprite" else "for all sprites"
        return f"added {what} {made['name']} ({where})"

    def _add_block(self, page: EditorPage, args: dict[str, Any]) -> str:
        spec = catalogue.block(args["opcode"])
        state = page.bridge.composite_blocks()
        kind = "stage" if state["is_stage"] else "sprite"
        if kind not in spec.targets:
            raise ActionError(
                f"add_block: {spec.opcode} is not available for the {kind} "
                f"(only for the {' and '.join(spec.targets)})"
            )
        takes = PROCEDURE_OPTIONS.get(spec.opcode, ())
        for option in sorted({o for opts in PROCEDURE_OPTIONS.values() for o in opts}):
            if option in args and option not in takes:
                raise ActionError(
                    f"add_block: {spec.opcode} takes no `{option}` option (it is for "
                    + ", ".join(k for k, v in PROCEDURE_OPTIONS.items() if option in v)
                    + ")"
                )
        for option in REQUIRED_OPTIONS.get(spec.opcode, ()):
            if option not in args:
                raise ActionError(f"add_block: {spec.opcode} needs the `{option}` option")
        if takes:
            made = self._add_my_block(page, spec.opcode, args, state["blocks"])
            self.made_id = made["id"]
            index, text = _new_index(made, made["id"])
            return f"added block {index}: {text} (a new script)"
        takes = name_options(spec)
        for option in NAME_OPTIONS:
            if option in args and option not in takes:
                raise ActionError(
                    f"add_block: {spec.opcode} takes no `{option}` option"
                    + (f" (it takes {', '.join(takes)})" if takes else "")
                )
        names = {
            "variable": args.get("variable"),
            "list": args.get("list"),
            "broadcast": args.get("message"),
        }
        with self._refused():
            made = page.bridge.composite_add_block(_spec_json(spec), names)
        self.made_id = made["id"]
        index, text = _new_index(made, made["id"])
        return f"added block {index}: {text} (a new script)"

    def _add_my_block(
        self, page: EditorPage, opcode: str, args: dict[str, Any], blocks: dict[str, Any]
    ) -> Edit:
        """A define block, a call or an argument reporter (validated against the VM's blocks)."""
        defined = procedures(blocks)
        listing = "; ".join(defined) or "(none)"
        if opcode == "procedures_definition":
            proccode = " ".join(args["proccode"].split())
            kinds = PLACEHOLDER.findall(proccode)
            bad = sorted({k for k in kinds if k not in ("s", "b")})
            if bad:
                raise ActionError(
                    f"add_block: proccode inputs are %s (number or text) and %b (boolean), "
                    f"not {', '.join('%' + k for k in bad)}"
                )
            if not PLACEHOLDER.sub("", proccode).strip():
                raise ActionError("add_block: a custom block's proccode needs a label word")
            names = args.get("argument_names", [])
            if len(names) != len(kinds):
                raise ActionError(
                    f"add_block: proccode {proccode!r} has {len(kinds)} input(s) but "
                    f"argument_names lists {len(names)}"
                )
            if len(set(names)) != len(names):
                raise ActionError("add_block: argument_names must be different from each other")
            if proccode in defined:
                raise ActionError(f"add_block: a custom block {proccode!r} is already defined")
            with self._refused():
                return page.bridge.composite_add_definition(
                    proccode, names, kinds, bool(args.get("warp", False))
                )
        if opcode == "procedures_call":
            proccode = " ".join(args["proccode"].split())
            if proccode not in defined:
                close = difflib.get_close_matches(proccode, list(defined), n=3, cutoff=0.5)
                hint = f" (did you mean {', '.join(close)}?)" if close else ""
                raise ActionError(
                    f"add_block: no custom block {proccode!r} is defined in this sprite or "
                    f"stage{hint}; defined: {listing}"
                )
            with self._refused():
                return page.bridge.composite_add_call(proccode)
        want = "b" if opcode == "argument_reporter_boolean" else "s"
        name = args["argument"].strip()
        found = {n for args_ in defined.values() for n, k in args_ if k == want}
        if name not in found:
            what = "boolean" if want == "b" else "number or text"
            raise ActionError(
                f"add_block: no {what} input named {name!r} in this target's custom blocks; "
                f"{what} inputs: {', '.join(sorted(found)) or '(none)'}"
            )
        with self._refused():
            return page.bridge.composite_add_argument(opcode, name)

    def _connect(self, page: EditorPage, args: dict[str, Any]) -> str:
        state, program = self._program(page)
        source = self._resolve(program, state, args["source"])
        target = self._resolve(program, state, args["target"])
        placement = args["placement"]
        label_s = program.describe(args["source"])
        label_t = program.describe(args["target"])
        text_s, text_t = program.labels[args["source"]], program.labels[args["target"]]
        inp = args.get("input")
        target_block = state["blocks"][target]
        if inp is not None and target_block["opcode"] == "procedures_call":
            inp = _call_input(state["blocks"], target_block, inp, "connect_blocks")
        if placement in ("statement_into", "value_into") and inp is None:
            inp = self._default_input(state["blocks"], target_block, placement, label_t)
        if inp is not None and placement not in ("statement_into", "value_into"):
            raise ActionError(
                f"connect_blocks: `input` is only for statement_into and value_into, not {placement}"
            )
        context = f"cannot put {label_s} {RELATIONS[placement]} {label_t}: "
        with self._refused(context):
            made = page.bridge.composite_connect(source, target, placement, inp)
        where = f" ({inp})" if inp else ""
        index, _ = _new_index(made, source)
        return f"put {text_s} {RELATIONS[placement]} {text_t}{where}; it is now block {index}"

    def _default_input(
        self, blocks: dict[str, Any], block: dict[str, Any], placement: str, label: str
    ) -> str:
        spec = catalogue.get(block["opcode"])
        if placement == "statement_into":
            if spec is not None and spec.statements:
                return spec.statements[0]
            raise ActionError(
                f"connect_blocks: {label} is not a C-block; it has no statement input"
            )
        if block["opcode"] == "procedures_call":
            named = call_arguments(blocks, block)
            if len(named) == 1:
                return next(iter(named))
            names = list(named.values())
        else:
            names = [a.name for a in spec.args if a.kind in VALUE_INPUT_KINDS] if spec else []
        if len(names) == 1:
            return names[0]
        raise ActionError(
            f"connect_blocks: value_into needs `input`: {label} has inputs "
            f"{', '.join(names) if names else '(none)'}"
        )

    def _detach(self, page: EditorPage, args: dict[str, Any]) -> str:
        state, program = self._program(page)
        bid = self._resolve(program, state, args["index"])
        label = program.describe(args["index"])
        with self._refused(f"cannot detach {label}: "):
            made = page.bridge.composite_detach(bid)
        index, _ = _new_index(made, bid)
        return f"detached {label}: it starts a new script as block {index}"

    def _delete(self, page: EditorPage, args: dict[str, Any]) -> str:
        state, program = self._program(page)
        bid = self._resolve(program, state, args["index"])
        label = program.describe(args["index"])
        with self._refused():
            done = page.bridge.composite_delete(bid)
        inside = done["removed"] - 1
        return f"deleted {label}" + (f" with the {inside} block(s) inside it" if inside else "")

    def _set_field(self, page: EditorPage, args: dict[str, Any]) -> str:
        state, program = self._program(page)
        bid = self._resolve(program, state, args["index"])
        label = program.describe(args["index"])
        field = args["field"]
        if state["blocks"][bid]["opcode"] == "procedures_call":
            field = _call_input(state["blocks"], state["blocks"][bid], field, "set_block_field")
        spec = catalogue.get(state["blocks"][bid]["opcode"])
        if spec is not None:
            names = {a.name.lower(): a.name for a in spec.args}
            field = names.get(field.lower(), field)
            arg = next((a for a in spec.args if a.name == field), None)
            problem = literal_problem(arg, args["value"]) if arg else None
            if problem:
                raise ActionError(f"set_block_field: cannot set {field} of {label}: {problem}")
        with self._refused(f"cannot set {field} of {label}: "):
            made = page.bridge.composite_set_field(bid, field, args["value"])
        index, text = _new_index(made, bid)
        return f"set {field} of block {index}: {text}"

    def _run(self, page: EditorPage, args: dict[str, Any]) -> str:
        with self._refused():
            ran = page.bridge.composite_run()
        return f"clicked the green flag ({ran['threads']} script(s) started)"

    def _stop(self, page: EditorPage, args: dict[str, Any]) -> str:
        with self._refused():
            page.bridge.composite_stop()
        return "stopped all scripts"


def literal_problem(arg: Arg, value: str) -> str | None:
    """Why ``value`` cannot go into a number or colour slot (the editor's keyboard filter and
    colour picker only make valid values), or None."""
    if arg.kind in ("number", "angle"):
        if not is_number(value):
            return f"{value!r} is not a valid value for {arg.name}: it takes a number"
        number = float(value)
        if arg.shadow in ("math_positive_number", "math_whole_number") and number < 0:
            return f"{value!r} is not a valid value for {arg.name}: it takes a number >= 0"
        if arg.shadow in ("math_whole_number", "math_integer") and not number.is_integer():
            return f"{value!r} is not a valid value for {arg.name}: it takes a whole number"
    if arg.kind == "colour" and not re.fullmatch(r"#[0-9a-fA-F]{6}", value):
        return f"{value!r} is not a valid value for {arg.name}: it takes a colour #rrggbb"
    return None


def _call_input(blocks: dict[str, Any], call: dict[str, Any], name: str, api: str) -> str:
    """The input id of a call's argument given by name (or by id)."""
    named = call_arguments(blocks, call)
    if name in named:
        return name
    ids = [i for i, n in named.items() if n == name]
    if len(ids) == 1:
        return ids[0]
    raise ActionError(
        f"{api}: the custom block {call.get('mutation', {}).get('proccode', '?')!r} has no "
        f"input {name!r}; its inputs: {', '.join(named.values()) or '(none)'}"
    )


def _new_index(made: Edit, block_id: str) -> tuple[int | None, str]:
    """A block's index and text in the blocks an edit returned (the next observation's)."""
    program = number_blocks(made["blocks"])
    index = program.index_of(block_id)
    return index, program.labels.get(index, "?") if index else "?"


def _spec_json(spec: BlockSpec) -> dict[str, Any]:
    """The catalogue entry as the bridge reads it."""
    return {
        "opcode": spec.opcode,
        "args": [{k: v for k, v in asdict(a).items() if k != "options"} for a in spec.args],
        "statements": list(spec.statements),
    }
