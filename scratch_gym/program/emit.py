"""The matcher's tree -> sb3 blocks (``project.json`` form), with ids and script positions."""

from __future__ import annotations

import json
from typing import Any

from scratch_gym.program.blockdefs import NUMBER_SHADOWS, Arg
from scratch_gym.program.matcher import (
    LINE_HEIGHT,
    SCRIPT_GAP,
    Lit,
    Menu,
    NameRef,
    ParsedBlock,
    ParseResult,
    Procedure,
    VarField,
    _Parser,
    stable_id,
)
from scratch_gym.program.sb3blocks import BROADCAST, LIST, VAR
from scratch_gym.program.values import has_letter


class Emitter:
    """Writes the blocks of parsed scripts, creating the variables, lists and broadcasts."""

    def __init__(
        self, parser: _Parser, origin: tuple[float, float], taken: set[str] | None = None
    ) -> None:
        self.p = parser
        self.taken = taken or set()
        self.blocks: dict[str, dict[str, Any]] = {}
        self.counter = 0
        self.origin = origin
        self.variables: dict[str, str] = {}
        self.lists: dict[str, str] = {}
        self.broadcasts: dict[str, str] = {}

    def new_id(self) -> str:
        """The next block id (skipping ids the target already uses)."""
        while True:
            self.counter += 1
            bid = f"{self.p.prefix}b{self.counter}"
            if bid not in self.taken:
                return bid

    # -- names ------------------------------------------------------------------------------------
    def _named(self, kind: str, name: str) -> str:
        known = {"var": self.p.known_vars, "list": self.p.known_lists}.get(
            kind, self.p.known_broadcasts
        )
        used = {"var": self.variables, "list": self.lists}.get(kind, self.broadcasts)
        created = {"var": self.p.new_vars, "list": self.p.new_lists}.get(
            kind, self.p.new_broadcasts
        )
        if name in used:
            return used[name]
        vid = known.get(name) or ""
        if not vid:
            # broadcasts are global: one id per name, whatever the target
            vid = stable_id(kind if kind == "broadcast" else f"{self.p.prefix}{kind}", name)
            created.append(name)
        known[name] = vid
        used[name] = vid
        return vid

    def var_id(self, name: str) -> str:
        return self._named("var", name)

    def list_id(self, name: str) -> str:
        return self._named("list", name)

    def broadcast_id(self, name: str) -> str:
        return self._named("broadcast", name)

    # -- scripts ----------------------------------------------------------------------------------
    def emit(self, scripts: list[tuple[list[ParsedBlock], Procedure | None]]) -> ParseResult:
        x, y = self.origin
        tops = []
        for nodes, define in scripts:
            self.p.define = define
            first = self.chain(nodes, None)
            self.blocks[first].update(topLevel=True, x=x, y=y)
            tops.append(first)
            y += SCRIPT_GAP + LINE_HEIGHT * _height(nodes)
        return ParseResult(
            blocks=self.blocks,
            scripts=tops,
            variables=self.variables,
            lists=self.lists,
            broadcasts=self.broadcasts,
            created_variables=list(self.p.new_vars),
            created_lists=list(self.p.new_lists),
            created_broadcasts=list(self.p.new_broadcasts),
        )

    def chain(self, nodes: list[ParsedBlock], parent: str | None) -> str:
        first = prev = None
        for node in nodes:
            bid = self.node(node, prev or parent)
            if prev is None:
                first = bid
            else:
                self.blocks[prev]["next"] = bid
            prev = bid
        assert first is not None
        return first

    def block(self, opcode: str, parent: str | None, shadow: bool = False) -> tuple[str, dict]:
        bid = self.new_id()
        b = {
            "opcode": opcode,
            "next": None,
            "parent": parent,
            "inputs": {},
            "fields": {},
            "shadow": shadow,
            "topLevel": False,
        }
        self.blocks[bid] = b
        return bid, b

    def node(self, node: ParsedBlock, parent: str | None) -> str:
        if node.opcode == "procedures_definition":
            return self.definition(node, parent)
        if node.opcode == "procedures_call":
            return self.call(node, parent)
        bid, b = self.block(node.opcode, parent)
        if node.opcode == "data_variable":
            b["fields"]["VARIABLE"] = [node.name, self.var_id(node.name)]
            return bid
        if node.opcode == "data_listcontents":
            b["fields"]["LIST"] = [node.name, self.list_id(node.name)]
            return bid
        if node.opcode.startswith("argument_reporter"):
            b["fields"]["VALUE"] = [node.name, None]
            return bid
        spec = node.spec
        for arg in spec.args:
            self.argument(bid, b, arg, node.args.get(arg.name))
        for name, nodes in node.stacks.items():
            if nodes:
                b["inputs"][name] = [2, self.chain(nodes, bid)]
        if node.opcode == "control_stop":
            option = node.args["STOP_OPTION"].value
            hasnext = option in spec.extra.get("stack_when", [])
            b["mutation"] = {"tagName": "mutation", "children": [], "hasnext": json.dumps(hasnext)}
        return bid

    def argument(self, bid: str, b: dict, arg: Arg, value: Any) -> None:
        kind = arg.kind
        if kind == "field":
            b["fields"][arg.field] = [value.value, None]
            return
        if kind == "variable":
            assert isinstance(value, VarField)
            if value.vtype == "list":
                vid = self.list_id(value.name)
            elif value.vtype == "broadcast_msg":
                vid = self.broadcast_id(value.name)
            else:
                vid = self.var_id(value.name)
            b["fields"][arg.field] = [value.name, vid]
            return
        if kind == "boolean":
            if value is not None:
                b["inputs"][arg.name] = [2, self.node(value, bid)]
            return
        if kind == "broadcast":
            self.broadcast_input(bid, b, arg, value)
            return
        if kind == "menu":
            self.menu_input(bid, b, arg, value)
            return
        self.value_input(bid, b, arg.name, NUMBER_SHADOWS[arg.shadow], arg.default, value, arg)

    def value_input(
        self, bid: str, b: dict, name: str, prim: int, default: str, value: Any, arg: Arg
    ) -> None:
        if isinstance(value, NameRef):
            value = self.resolve(value, arg)
        if isinstance(value, Lit):
            b["inputs"][name] = [1, [prim, value.text]]
        elif isinstance(value, ParsedBlock):
            b["inputs"][name] = [3, self.reporter(value, bid), [prim, default]]
        else:
            b["inputs"][name] = [1, [prim, ""]]

    def reporter(self, node: ParsedBlock, parent: str) -> str | list:
        """A reporter in an input: variables and lists inline as sb3 primitives."""
        if node.opcode == "data_variable":
            return [VAR, node.name, self.var_id(node.name)]
        if node.opcode == "data_listcontents":
            return [LIST, node.name, self.list_id(node.name)]
        return self.node(node, parent)

    def resolve(self, ref: NameRef, arg: Arg) -> ParsedBlock | Lit | Menu:
        """The variable-vs-literal rule (see the matcher module's docstring)."""
        name = ref.text.strip()
        node = self.p.name_node(name, 0)
        if node is not None:
            return node
        if arg.kind in ("menu", "broadcast"):
            return Menu(ref.text)
        if self.p.dialect == "standard" or (arg.numeric and has_letter(name)):
            self.p.known_vars[name] = ""
            return self.p.name_node(name, 0)
        return Lit(ref.text)

    def menu_input(self, bid: str, b: dict, arg: Arg, value: Any) -> None:
        if isinstance(value, NameRef):
            value = self.resolve(value, arg)
        if isinstance(value, Lit):
            value = Menu(value.text)
        sid, shadow = self.block(arg.shadow, bid, shadow=True)
        if isinstance(value, Menu):
            shadow["fields"][arg.field] = [value.text, None]
            b["inputs"][arg.name] = [1, sid]
        else:
            shadow["fields"][arg.field] = [arg.default, None]
            b["inputs"][arg.name] = [3, self.reporter(value, bid), sid]

    def broadcast_input(self, bid: str, b: dict, arg: Arg, value: Any) -> None:
        if isinstance(value, NameRef):
            value = self.resolve(value, arg)
        if isinstance(value, Lit):
            value = Menu(value.text)
        if isinstance(value, Menu):
            b["inputs"][arg.name] = [1, [BROADCAST, value.text, self.broadcast_id(value.text)]]
        else:
            default = arg.default or "message1"
            shadow = [BROADCAST, default, self.broadcast_id(default)]
            b["inputs"][arg.name] = [3, self.reporter(value, bid), shadow]

    # -- custom blocks ----------------------------------------------------------------------------
    def definition(self, node: ParsedBlock, parent: str | None) -> str:
        proc = node.proc
        bid, b = self.block("procedures_definition", parent)
        pid, proto = self.block("procedures_prototype", bid, shadow=True)
        b["inputs"]["custom_block"] = [1, pid]
        for name, kind, arg_id in zip(proc.names, proc.kinds, proc.ids, strict=True):
            opcode = (
                "argument_reporter_boolean" if kind == "b" else "argument_reporter_string_number"
            )
            aid, ab = self.block(opcode, pid, shadow=True)
            ab["fields"]["VALUE"] = [name, None]
            proto["inputs"][arg_id] = [1, aid]
        proto["mutation"] = {
            "tagName": "mutation",
            "children": [],
            "proccode": proc.proccode,
            "argumentids": json.dumps(proc.ids),
            "argumentnames": json.dumps(proc.names),
            "argumentdefaults": json.dumps(["false" if k == "b" else "" for k in proc.kinds]),
            "warp": json.dumps(proc.warp),
        }
        return bid

    def call(self, node: ParsedBlock, parent: str | None) -> str:
        proc = node.proc
        bid, b = self.block("procedures_call", parent)
        text = Arg(name="", kind="text", shadow="text")
        for arg_id, kind in zip(proc.ids, proc.kinds, strict=True):
            value = node.args.get(arg_id)
            if kind == "b":
                if value is not None:
                    b["inputs"][arg_id] = [2, self.node(value, bid)]
            else:
                self.value_input(bid, b, arg_id, NUMBER_SHADOWS["text"], "", value, text)
        b["mutation"] = {
            "tagName": "mutation",
            "children": [],
            "proccode": proc.proccode,
            "argumentids": json.dumps(proc.ids),
            "warp": json.dumps(proc.warp),
        }
        return bid


def _height(nodes: list[ParsedBlock]) -> int:
    total = 0
    for n in nodes:
        total += 1 + sum(_height(s) + 1 for s in n.stacks.values())
    return total
