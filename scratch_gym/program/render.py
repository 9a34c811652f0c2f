"""Blocks -> scratchblocks text, from the blocks alone.

``render_scripts`` takes a target's blocks in sb3 form (``project.json``) or the VM's in-memory
form (``page.bridge.vm_blocks()``) and writes one script after another (top to bottom,
then left to right), separated by blank lines, with 4-space indentation inside C-blocks.
Variables, lists, broadcasts, costumes and sounds are written by name.

``dialect="standard"`` writes scratchblocks as the Scratch wiki does: numbers ``(10)``, text
``[hello]``, menus ``(mouse-pointer v)``, fields ``[color v]``, colours ``[#ff0000]``, and
``(name :: variables)`` where a variable's name would read as a block or a number.
``dialect="nl2scratch"`` writes the NL2Scratch corpus dialect: text and colours (signed ARGB
integers) in round brackets, menu values as stored (``(_edge_ v)``), direction slots as menus
(``(90 v)``), ``switch costume to [costume1]``, ``when (space v) key pressed``,
``((abs) of (x))``, ``join (a) and (b)``, ``play sound (x v)``.
"""

from __future__ import annotations

import json
from typing import Any

from scratch_gym.program.blockdefs import VALUE_SHAPES, Arg, BlockSpec, Catalogue
from scratch_gym.program.lexer import Word, key_of
from scratch_gym.program.matcher import DIALECTS
from scratch_gym.program.sb3blocks import BROADCAST, LIST, PRIMITIVE_OPCODES, VAR, to_sb3
from scratch_gym.program.spellings import NL2SCRATCH_SLOTS
from scratch_gym.program.values import colour_to_int_text, is_number

INDENT = "    "


def render_scripts(
    blocks: dict[str, Any],
    *,
    dialect: str = "standard",
    catalogue: Catalogue | None = None,
) -> str:
    """The scratchblocks text of every script in ``blocks`` (sb3 or VM form)."""
    return "\n\n".join("\n".join(s) for s in render_script_lines(blocks, dialect, catalogue))


def render_targets(project: dict[str, Any], *, dialect: str = "standard") -> dict[str, str]:
    """The scripts of every target of a project.json, by target name (stage first)."""
    return {
        t["name"]: render_scripts(t.get("blocks", {}), dialect=dialect)
        for t in project.get("targets", [])
    }


def render_script_lines(
    blocks: dict[str, Any], dialect: str = "standard", catalogue: Catalogue | None = None
) -> list[list[str]]:
    """Each script's lines, in script order."""
    if dialect not in DIALECTS:
        raise ValueError(f"dialect must be one of {DIALECTS}, not {dialect!r}")
    if catalogue is None:
        from scratch_gym.program import catalogue as default

        catalogue = default
    return _Renderer(to_sb3(blocks), dialect, catalogue).scripts()


def render_block(blocks: dict[str, Any], block_id: str, catalogue: Catalogue | None = None) -> str:
    """One block's own text with its values (its reporters inside, not the blocks stacked below
    or inside it): ``move (25) steps``, ``if <(score) > [5]> then``; reporters in their brackets."""
    if catalogue is None:
        from scratch_gym.program import catalogue as default

        catalogue = default
    renderer = _Renderer(to_sb3(blocks), "standard", catalogue)
    b = renderer.blocks[block_id]
    spec = renderer.spec(b) if isinstance(b, dict) else None
    if isinstance(b, list) or (spec is not None and spec.shape in VALUE_SHAPES):
        return renderer.reporter(block_id)
    return renderer.text(b)


def script_order(blocks: dict[str, Any]) -> list[str]:
    """The ids of the scripts' top blocks (and top-level literals) in script order: top to
    bottom, then left to right, then as stored. ``blocks`` are sb3 blocks (see ``to_sb3``)."""
    tops = []
    for order, (bid, b) in enumerate(blocks.items()):
        if isinstance(b, list):
            if len(b) >= 5:
                tops.append((b[4], b[3], order, bid))
        elif b.get("topLevel") and not b.get("shadow"):
            tops.append((b.get("y", 0) or 0, b.get("x", 0) or 0, order, bid))
    tops.sort(key=lambda t: (t[0], t[1], t[2]))
    return [t[3] for t in tops]


class _Renderer:
    def __init__(self, blocks: dict[str, Any], dialect: str, cat: Catalogue) -> None:
        self.blocks = blocks
        self.nl = dialect == "nl2scratch"
        self.cat = cat

    def scripts(self) -> list[list[str]]:
        out = []
        for bid in script_order(self.blocks):
            b = self.blocks[bid]
            if isinstance(b, list):
                out.append([self.primitive(b)])
            elif self.spec(b) is not None and self.spec(b).shape in VALUE_SHAPES:
                out.append([self.reporter(bid)])
            else:
                out.append(self.stack(bid, 0))
        return out

    def spec(self, b: dict[str, Any]) -> BlockSpec | None:
        return self.cat.get(b["opcode"])

    # -- stacks ---------------------------------------------------------------------------------
    def stack(self, bid: str | None, depth: int) -> list[str]:
        lines: list[str] = []
        pad = INDENT * depth
        while bid:
            b = self.blocks[bid]
            lines.append(pad + self.text(b))
            spec = self.spec(b)
            if spec is not None and spec.statements:
                for i, name in enumerate(spec.statements):
                    if i:
                        lines.append(pad + "else")
                    child = _input_ref(b, name)
                    if isinstance(child, str):
                        lines.extend(self.stack(child, depth + 1))
                lines.append(pad + "end")
            bid = b.get("next")
        return lines

    # -- one block ------------------------------------------------------------------------------
    def text(self, b: dict[str, Any]) -> str:
        opcode = b["opcode"]
        if opcode == "procedures_definition":
            text = "define " + self.prototype(b)
            return text + (" :: run without screen refresh" if self.warp(b) else "")
        if opcode == "procedures_call":
            return self.call(b)
        if opcode in ("argument_reporter_string_number", "argument_reporter_boolean"):
            return str(_field(b, "VALUE"))
        if opcode in ("data_variable", "data_listcontents"):
            return str(_field(b, "VARIABLE" if opcode == "data_variable" else "LIST"))
        spec = self.spec(b)
        if spec is None:
            return f"{opcode} :: unknown"
        pattern = spec.dialect_pattern if self.nl else spec.pattern
        args = iter(spec.args)
        words: list[str] = []
        for part in pattern.parts:
            text = self.slot(spec, next(args), b) if part is None else part
            if words and (part or "").startswith("?"):
                words[-1] += text
            else:
                words.append(text)
        return " ".join(words)

    def slot(self, spec: BlockSpec, arg: Arg, b: dict[str, Any]) -> str:
        kind = arg.kind
        if kind == "field":
            return self.field(spec, arg, _field(b, arg.field))
        if kind == "variable":
            name = str(_field(b, arg.field))
            style = NL2SCRATCH_SLOTS.get((spec.opcode, arg.name)) if self.nl else None
            return f"({name} v)" if style == "round_v" else f"[{name} v]"
        if kind == "boolean":
            ref = _input_ref(b, arg.name)
            return self.reporter(ref) if ref is not None else "<>"
        value = self.input_value(b, arg.name)
        if value[0] == "block":
            if kind == "angle" and self.nl:
                return "(" + self.reporter(value[1])[1:-1] + " v)"
            return self.reporter(value[1])
        text = value[1]
        if kind in ("menu", "broadcast"):
            return self.menu(spec, arg, text)
        return self.literal(kind, text)

    def literal(self, kind: str, text: str) -> str:
        if self.nl:
            if kind == "angle":
                return f"({text} v)"
            if kind == "colour":
                return f"({colour_to_int_text(text)})"
            return f"({text})"
        if is_number(text) or (kind in ("number", "angle") and not text.strip()):
            return f"({text})"
        return "[" + text.replace("]", "\\]") + "]"

    def menu(self, spec: BlockSpec, arg: Arg, value: str) -> str:
        if self.nl:
            style = NL2SCRATCH_SLOTS.get((spec.opcode, arg.name))
            return f"[{value}]" if style == "square" else f"({value} v)"
        return f"({arg.display_of(value)} v)"

    def field(self, spec: BlockSpec, arg: Arg, value: Any) -> str:
        value = "" if value is None else str(value)
        if self.nl:
            style = NL2SCRATCH_SLOTS.get((spec.opcode, arg.name))
            if style == "square":
                return f"[{value}]"
            if style == "round":
                return f"({value})"
            if style == "round_v":
                return f"({value} v)"
        return f"[{arg.display_of(value)} v]"

    # -- inputs ---------------------------------------------------------------------------------
    def input_value(self, b: dict[str, Any], name: str) -> tuple[str, Any]:
        """("block", ref) for a reporter in the input, else ("value", text) of its shadow."""
        inp = b.get("inputs", {}).get(name)
        if not inp:
            return ("value", "")
        top = inp[1]
        if inp[0] == 1:
            return ("value", self.shadow_value(top))
        if isinstance(top, list) and top[0] not in (VAR, LIST):
            return ("value", str(top[1]))
        if top is None:
            return ("value", self.shadow_value(inp[2]) if len(inp) > 2 else "")
        return ("block", top)

    def shadow_value(self, ref: Any) -> str:
        if isinstance(ref, list):
            return str(ref[1])
        if ref is None or ref not in self.blocks:
            return ""
        shadow = self.blocks[ref]
        fields = shadow.get("fields", {})
        if not fields:
            return ""
        return str(next(iter(fields.values()))[0])

    def reporter(self, ref: Any) -> str:
        """A reporter or boolean in its brackets."""
        if isinstance(ref, list):
            return self.primitive(ref)
        b = self.blocks[ref]
        opcode = b["opcode"]
        if opcode in PRIMITIVE_OPCODES and opcode in ("data_variable", "data_listcontents"):
            code = VAR if opcode == "data_variable" else LIST
            name = _field(b, "VARIABLE" if code == VAR else "LIST")
            return self.primitive([code, name])
        spec = self.spec(b)
        if opcode == "argument_reporter_boolean" or (spec is not None and spec.shape == "boolean"):
            return f"<{self.text(b)}>"
        return f"({self.text(b)})"

    def primitive(self, prim: list) -> str:
        code, name = prim[0], str(prim[1])
        if code == VAR:
            if not self.nl and self.ambiguous(name):
                return f"({name} :: variables)"
            return f"({name})"
        if code == LIST:
            return f"({name})" if self.nl else f"({name} :: list)"
        if code == BROADCAST:
            return f"({name} v)"
        return f"({name})"

    def ambiguous(self, name: str) -> bool:
        """Would ``(name)`` read as something other than a variable?"""
        if is_number(name) or not name.strip() or name.rstrip().endswith(" v"):
            return True
        key = key_of([Word(w, 0) for w in name.split()])
        return any(s.is_value for s, _ in self.cat.index.get(key, []))

    # -- custom blocks --------------------------------------------------------------------------
    def prototype(self, b: dict[str, Any]) -> str:
        proto_ref = _input_ref(b, "custom_block")
        proto = self.blocks.get(proto_ref) if isinstance(proto_ref, str) else None
        if proto is None:
            return ""
        m = proto.get("mutation", {})
        names = iter(json.loads(m.get("argumentnames", "[]")))
        words = []
        for word in m.get("proccode", "").split():
            if word in ("%s", "%n"):
                words.append(f"({next(names, '')})")
            elif word == "%b":
                words.append(f"<{next(names, '')}>")
            else:
                words.append(word)
        return " ".join(words)

    def warp(self, b: dict[str, Any]) -> bool:
        ref = _input_ref(b, "custom_block")
        proto = self.blocks.get(ref) if isinstance(ref, str) else None
        return isinstance(proto, dict) and proto.get("mutation", {}).get("warp") in (True, "true")

    def call(self, b: dict[str, Any]) -> str:
        m = b.get("mutation", {})
        ids = iter(json.loads(m.get("argumentids", "[]")))
        text_arg = Arg(name="", kind="text")
        words = []
        for word in m.get("proccode", "").split():
            if word in ("%s", "%n", "%b"):
                arg_id = next(ids, "")
                if word == "%b":
                    ref = _input_ref(b, arg_id)
                    words.append(self.reporter(ref) if ref is not None else "<>")
                    continue
                value = self.input_value(b, arg_id)
                if value[0] == "block":
                    words.append(self.reporter(value[1]))
                else:
                    words.append(self.literal(text_arg.kind, value[1]))
            else:
                words.append(word)
        return " ".join(words)


def _field(b: dict[str, Any], name: str) -> Any:
    f = b.get("fields", {}).get(name)
    if f is None:
        return ""
    return f[0] if isinstance(f, list) else f.get("value", "")


def _input_ref(b: dict[str, Any], name: str) -> Any:
    inp = b.get("inputs", {}).get(name)
    if not inp or len(inp) < 2:
        return None
    return inp[1]
