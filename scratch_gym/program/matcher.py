"""scratchblocks text -> Scratch 3 ``project.json`` blocks for one target.

Scripts are separated by blank lines or start at a hat block; C-blocks close with ``end`` (a
script's open C-blocks close at its end), ``else`` splits an ``if``. Indentation is ignored.
Each line is matched against the catalogue's patterns by its words (slots aside), so
``move (10) steps`` and ``move ((x) + (1)) steps`` both match ``move _ steps``; where several
blocks share words (``length of``, ``contains``, ``of``, effects) the arguments decide.

**Names in round brackets.** ``(name)`` that is not a reporter block, a number or a menu value
(``(edge v)``) is resolved, in this order, to: an argument of the enclosing ``define`` (which
also wins over a reporter of the same name: ``(size)`` in ``define star (size)``); a
variable known to the program (declared by the target or stage passed in, given in
``variables``, or named by a variable field of the text: ``set``/``change``/``show``/``hide``);
a known list; the value of a menu slot (``switch costume to (costume2)``). Otherwise the dialect
decides: ``standard`` scratchblocks makes it a new variable; the ``nl2scratch`` corpus dialect,
which writes literal text in round brackets (``say (Hello there)``), makes it literal text,
except in a number slot where a name with a letter cannot be a number and becomes a variable.

Both dialects' spellings are accepted either way (``when (space v) key pressed``,
``switch costume to [costume1]``, colours as signed integers, ``((abs) of (x))``,
``join (a) and (b)``, ``play sound (x v)``); ``dialect`` only changes the rule above.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from hashlib import md5
from typing import Any

from scratch_gym.program.blockdefs import (
    STATEMENT_SHAPES,
    VALUE_SHAPES,
    Arg,
    BlockSpec,
    Catalogue,
)
from scratch_gym.program.errors import ScratchblocksError
from scratch_gym.program.lexer import Bracket, Item, Line, Word, key_of, lex_line
from scratch_gym.program.values import colour_from_text, is_number

DIALECTS = ("standard", "nl2scratch")
SUGGEST_CHARS = 120  # longest text compared with block patterns for suggestions
_VALUE_OPCODES = frozenset(
    {
        "data_variable",
        "data_listcontents",
        "argument_reporter_string_number",
        "argument_reporter_boolean",
    }
)
SCRIPT_GAP = 48  # vertical space between scripts, in workspace units
LINE_HEIGHT = 48


# -- the intermediate tree ----------------------------------------------------------------------
@dataclass
class Lit:
    text: str


@dataclass
class Menu:
    text: str


@dataclass
class NameRef:
    text: str


@dataclass
class FieldVal:
    value: str


@dataclass
class VarField:
    name: str
    vtype: str


@dataclass
class Procedure:
    proccode: str
    names: list[str]
    kinds: list[str]  # "s" or "b" per argument
    ids: list[str]
    warp: bool = False

    @property
    def key(self) -> str:
        return proccode_key(self.proccode)


@dataclass
class ParsedBlock:
    """One block of parsed scratchblocks text, where it stands, its arguments and stacks."""

    opcode: str
    line: int
    col: int
    spec: BlockSpec | None = None
    args: dict[str, Any] = field(default_factory=dict)
    stacks: dict[str, list[ParsedBlock]] = field(default_factory=dict)
    proc: Procedure | None = None
    name: str = ""  # variable, list or argument reporters


def proccode_key(proccode: str) -> str:
    text = proccode.replace("%s", " () ").replace("%n", " () ").replace("%b", " <> ")
    return key_of(lex_line(text, 0).items)


# -- the result ---------------------------------------------------------------------------------
@dataclass
class ParseResult:
    """Blocks for one target, and the variables, lists and broadcasts they use (name -> id).

    ``created_*`` name those that were not known beforehand; :meth:`apply_to` declares them.
    """

    blocks: dict[str, dict[str, Any]]
    scripts: list[str]
    variables: dict[str, str]
    lists: dict[str, str]
    broadcasts: dict[str, str]
    created_variables: list[str]
    created_lists: list[str]
    created_broadcasts: list[str]

    def apply_to(self, target: dict[str, Any], stage: dict[str, Any] | None = None) -> None:
        """Add the blocks to a project target and declare what they created.

        New variables and lists go to ``target`` (local to it; on the stage they are global),
        new broadcasts to ``stage`` (or ``target`` when no stage is given).
        """
        target.setdefault("blocks", {}).update(self.blocks)
        for name in self.created_variables:
            target.setdefault("variables", {})[self.variables[name]] = [name, 0]
        for name in self.created_lists:
            target.setdefault("lists", {})[self.lists[name]] = [name, []]
        holder = stage if stage is not None else target
        for name in self.created_broadcasts:
            holder.setdefault("broadcasts", {})[self.broadcasts[name]] = name


def _names(source: Mapping[str, str] | Iterable[str] | None, prefix: str) -> dict[str, str]:
    if source is None:
        return {}
    if isinstance(source, Mapping):
        return dict(source)
    return {name: stable_id(prefix, name) for name in source}


def stable_id(prefix: str, name: str) -> str:
    """A reproducible id for a named thing (variables, lists, broadcasts)."""
    return f"{prefix}-{md5(name.encode('utf-8')).hexdigest()[:12]}"


def _declared(target: dict[str, Any] | None, key: str) -> dict[str, str]:
    out: dict[str, str] = {}
    if not target:
        return out
    for vid, value in target.get(key, {}).items():
        name = value if isinstance(value, str) else value[0]
        out[name] = vid
    return out


def _procedures_of(target: dict[str, Any] | None) -> list[Procedure]:
    out = []
    for b in (target or {}).get("blocks", {}).values():
        if isinstance(b, dict) and b.get("opcode") == "procedures_prototype":
            m = b.get("mutation", {})
            names = json.loads(m.get("argumentnames", "[]"))
            ids = json.loads(m.get("argumentids", "[]"))
            code = m.get("proccode", "")
            kinds = ["b" if p == "%b" else "s" for p in _placeholders(code)]
            out.append(Procedure(code, names, kinds, ids, m.get("warp") in (True, "true")))
    return out


def _placeholders(proccode: str) -> list[str]:
    return re.findall(r"%[snb]", proccode)


# -- the parser ---------------------------------------------------------------------------------
class _Parser:
    def __init__(
        self,
        cat: Catalogue,
        dialect: str,
        variables: dict[str, str],
        lists: dict[str, str],
        broadcasts: dict[str, str],
        procedures: list[Procedure],
        id_prefix: str,
    ) -> None:
        if dialect not in DIALECTS:
            raise ValueError(f"dialect must be one of {DIALECTS}, not {dialect!r}")
        self.cat = cat
        self.dialect = dialect
        self.known_vars = dict(variables)
        self.known_lists = dict(lists)
        self.known_broadcasts = dict(broadcasts)
        self.new_vars: list[str] = []
        self.new_lists: list[str] = []
        self.new_broadcasts: list[str] = []
        self.procs: dict[str, Procedure] = {p.key: p for p in procedures}
        self.prefix = id_prefix
        self.line: Line | None = None
        self.define: Procedure | None = None

    # -- errors and suggestions -----------------------------------------------------------------
    def error(self, message: str, col: int | None = None, suggestions=None) -> ScratchblocksError:
        line = self.line
        if line is None:
            return ScratchblocksError(message, 0, 0, "", suggestions)
        column = col if col is not None else line.indent + 1
        return ScratchblocksError(message, line.number, column, line.text, suggestions)

    def suggest(self, key: str, shapes: frozenset[str]) -> list[str]:
        keys = {
            k: entries
            for k, entries in self.cat.index.items()
            if any(s.shape in shapes for s, _ in entries)
        }
        keys.update({p.key: [] for p in self.procs.values()})
        out = []
        # difflib is quadratic in the text's length: a suggestion only needs a block-sized prefix
        for k in difflib.get_close_matches(key[:SUGGEST_CHARS], list(keys), n=3, cutoff=0.45):
            entries = keys[k]
            if entries:
                out.append(entries[0][1].text)
            else:
                proc = next(p for p in self.procs.values() if p.key == k)
                out.append(
                    proc.proccode.replace("%s", "[]").replace("%n", "()").replace("%b", "<>")
                )
        return out

    # -- text -> tree ---------------------------------------------------------------------------
    def parse(self, text: str) -> list[tuple[list[ParsedBlock], Procedure | None]]:
        lines = text.splitlines()
        lexed: list[Line | None] = []
        for number, raw in enumerate(lines, start=1):
            if not raw.strip():
                lexed.append(None)
                continue
            line = lex_line(raw, number)
            lexed.append(line if line.items else None)
        for line in lexed:
            if line and _first_word(line) == "define":
                self.line = line
                proc = self.prototype(line)
                self.procs.setdefault(proc.key, proc)
        scripts: list[tuple[list[ParsedBlock], Procedure | None]] = []
        current: list[ParsedBlock] = []
        stack: list[
            tuple[ParsedBlock, list[ParsedBlock]]
        ] = []  # open C-blocks and the list they append to
        body = current
        define: Procedure | None = None

        def finish() -> None:
            nonlocal current, body, define
            if current:
                scripts.append((current, define))
            current, define = [], None
            stack.clear()
            body = current

        for line in lexed:
            if line is None:
                if not stack:
                    finish()
                continue
            self.line = line
            word = _first_word(line) if len(line.items) == 1 else None
            if word == "end":
                if not stack:
                    raise self.error("'end' without an open C-block (repeat, forever, if, ...)")
                _, body = stack.pop()
                continue
            if word == "else":
                if not stack or stack[-1][0].opcode not in ("control_if", "control_if_else"):
                    raise self.error("'else' outside an 'if <> then' block")
                node = stack[-1][0]
                if node.opcode == "control_if_else":
                    raise self.error("a second 'else' in the same 'if' block")
                node.opcode = "control_if_else"
                node.spec = self.cat.block("control_if_else")
                node.stacks["SUBSTACK2"] = []
                body = node.stacks["SUBSTACK2"]
                continue
            if _first_word(line) == "define":
                if stack:
                    raise self.error("'define' inside a C-block")
                finish()
                self.define = define = self.prototype(line, existing=True)
                node = ParsedBlock(
                    "procedures_definition", line.number, line.indent + 1, proc=define
                )
                current.append(node)
                continue
            self.define = define
            node = self.statement(line)
            shape = node.spec.shape if node.spec else "stack"
            if node.opcode in _VALUE_OPCODES or shape in ("reporter", "boolean"):
                if stack:
                    raise self.error("a reporter cannot go in a stack of blocks")
                finish()
                current.append(node)
                finish()
                continue
            if shape == "hat":
                if stack:
                    raise self.error("a hat block cannot go inside a C-block")
                finish()
            elif body and self._is_cap(body[-1]):
                if stack:
                    raise self.error(f"no block can follow '{_text(body[-1])}' inside a C-block")
                finish()
            body.append(node)
            if shape in ("c1", "c2"):
                node.stacks["SUBSTACK"] = []
                stack.append((node, body))
                body = node.stacks["SUBSTACK"]
        finish()
        return scripts

    def _is_cap(self, node: ParsedBlock) -> bool:
        if node.spec is None:
            return False
        if node.opcode == "control_stop":
            return node.args["STOP_OPTION"].value not in node.spec.extra.get("stack_when", [])
        return node.spec.shape == "cap" or node.opcode == "control_forever"

    def prototype(self, line: Line, existing: bool = False) -> Procedure:
        items = line.items[1:]
        parts, names, kinds = [], [], []
        for it in items:
            if isinstance(it, Word):
                parts.append(it.text)
            else:
                kind = "b" if it.kind == "<" else "s"
                parts.append(f"%{kind}")
                names.append(it.raw.strip())
                kinds.append(kind)
        if not parts:
            raise self.error("'define' needs the custom block's text", line.indent + 1)
        code = " ".join(parts)
        if existing:
            proc = self.procs.get(proccode_key(code))
            if proc is not None and proc.proccode == code:
                return proc
        ids = [stable_id(f"{self.prefix}arg", f"{code}/{i}/{n}") for i, n in enumerate(names)]
        warp = "run without screen refresh" in line.hint
        return Procedure(code, names, kinds, ids, warp)

    def statement(self, line: Line) -> ParsedBlock:
        items = line.items
        key = key_of(items)
        if line.hint != "custom":
            cands = [
                (s, p)
                for s, p in self.cat.index.get(key, [])
                if s.shape in STATEMENT_SHAPES and s.opcode != "control_if_else"
            ]
            if cands:
                return self.build(cands, items, line.indent + 1)
        proc = self.procs.get(key)
        if proc is not None:
            return self.call(proc, items, line.indent + 1)
        if len(items) == 1 and isinstance(items[0], Bracket) and items[0].kind != "[":
            return self.value_node(items[0], standalone=True)
        raise self.error(
            f"unknown block '{line.text.strip()}'",
            suggestions=self.suggest(key, STATEMENT_SHAPES),
        )

    def value_node(self, br: Bracket, standalone: bool = False) -> ParsedBlock:
        """A reporter or boolean block from a round or angle bracket."""
        items = br.items
        if items is None or not items:
            raise self.error("an empty or unreadable reporter", br.col)
        if len(items) == 1 and isinstance(items[0], Bracket) and items[0].kind != "[":
            return self.value_node(items[0], standalone)
        key = key_of(items)
        cands = self.value_candidates(key, items, br.raw)
        if cands:
            return self.build(cands, items, br.col)
        if all(isinstance(i, Word) for i in items):
            name = br.raw.strip()
            if br.kind == "<":
                if self.define and name in _args_of(self.define, "b"):
                    return ParsedBlock(
                        "argument_reporter_boolean", self.line.number, br.col, name=name
                    )
                raise self.error(
                    f"unknown boolean block <{br.raw}>",
                    br.col,
                    self.suggest(key, frozenset({"boolean"})),
                )
            if standalone:  # a lone (name) is a variable reporter
                node = self.name_node(name, br.col)
                if node is None:
                    self.known_vars.setdefault(name, "")
                    node = ParsedBlock("data_variable", self.line.number, br.col, name=name)
                return node
        raise self.error(
            f"unknown reporter {_bracketed(br)}",
            br.col,
            self.suggest(key, frozenset(VALUE_SHAPES)),
        )

    def value_candidates(self, key: str, items: list[Item], raw: str) -> list:
        """Reporter and boolean blocks spelled ``key`` (a predicate's ``?`` may be left out);
        one without slots must match in case (``(Timer)`` is a variable, ``(timer)`` the
        block)."""
        cands = [(s, p) for s, p in self.cat.index.get(key, []) if s.shape in VALUE_SHAPES]
        if not cands and not key.endswith("?"):
            cands = [(s, p) for s, p in self.cat.index.get(key + " ?", []) if s.shape == "boolean"]
        if cands and not any(isinstance(i, Bracket) for i in items):
            words = _bare_words(raw.split())
            cands = [(s, p) for s, p in cands if _bare_words(p.parts) == words]
        return cands

    def name_node(self, name: str, col: int, slot: Arg | None = None) -> ParsedBlock | None:
        """A variable, list or argument reporter for ``name``; None for a literal."""
        line = self.line.number if self.line else 0
        if self.define and name in _args_of(self.define, "s"):
            return ParsedBlock("argument_reporter_string_number", line, col, name=name)
        if name in self.known_vars:
            return ParsedBlock("data_variable", line, col, name=name)
        if name in self.known_lists:
            return ParsedBlock("data_listcontents", line, col, name=name)
        return None

    # -- matching a block -----------------------------------------------------------------------
    def build(self, cands: list[tuple[BlockSpec, Any]], items: list[Item], col: int) -> ParsedBlock:
        slots = [it for it in items if isinstance(it, Bracket)]
        if len(cands) > 1:
            cands = sorted(cands, key=lambda c: -self.fit(c[0], slots))
        spec = cands[0][0]
        node = ParsedBlock(spec.opcode, self.line.number, col, spec)
        for arg, item in zip(spec.args, slots, strict=True):
            node.args[arg.name] = self.argument(spec, arg, item)
        return node

    def fit(self, spec: BlockSpec, slots: list[Bracket]) -> int:
        score = 0
        for arg, item in zip(spec.args, slots, strict=True):
            text = (item.menu_value or item.raw).strip()
            if arg.kind == "field" and arg.options and not arg.dynamic:
                score += 2 if arg.value_of(text) is not None else -3
            elif arg.kind == "variable" and arg.variable_type == "list":
                if text in self.known_lists:
                    score += 2
                elif item.kind == "(" and item.menu_value is None and not _plain(item):
                    score -= 3
                elif item.menu_value is not None:
                    score += 1
            elif arg.kind in ("text", "number", "angle") and item.menu_value is not None:
                score -= 1
            elif arg.kind == "boolean":
                score += 1 if item.kind == "<" else -3
        return score

    def argument(self, spec: BlockSpec, arg: Arg, item: Bracket) -> Any:
        kind = arg.kind
        if kind == "boolean":
            if item.kind != "<":
                raise self.error(
                    f"a boolean <...> goes in this slot of '{spec.scratchblocks}', "
                    f"not {_bracketed(item)}",
                    item.col,
                )
            return self.boolean(item)
        if kind == "field":
            return self.field_value(spec, arg, item)
        if kind == "variable":
            return self.variable_field(arg, item)
        if kind in ("menu", "broadcast"):
            return self.menu_value(spec, arg, item)
        return self.input_value(spec.scratchblocks, arg, item)

    def boolean(self, item: Bracket) -> ParsedBlock | None:
        """The boolean block of a ``<...>`` slot (None for ``<>``)."""
        if not item.items:
            return None
        node = self.value_node(item)
        boolean = node.opcode == "argument_reporter_boolean" or (
            node.spec is not None and node.spec.shape == "boolean"
        )
        if not boolean:
            raise self.error(f"a reporter cannot go in a boolean slot: <{item.raw}>", item.col)
        return node

    def input_value(self, where: str, arg: Arg, item: Bracket) -> Any:
        if item.kind == "<":
            if arg.numeric:
                raise self.error(
                    f"a boolean {_bracketed(item)} cannot go in the number slot of '{where}'",
                    item.col,
                )
            return self.value_node(item)
        if item.kind == "[":
            text = item.menu_value if item.menu_value is not None else item.raw
            return self.colour(text, item.col) if arg.kind == "colour" else Lit(text)
        return self.round_value(arg, item, item.items, item.raw)

    def round_value(self, arg: Arg, item: Bracket, items: list[Item] | None, raw: str) -> Any:
        if items is None:
            return Lit(raw)
        if not items:
            return Lit("")
        if item.hint:
            return self.hinted(item, raw)
        if (
            len(items) > 1
            and isinstance(items[-1], Word)
            and items[-1].text == "v"
            and item.menu_value is not None
        ):
            # NL2Scratch writes direction slots as menus: (90 v), ((a) + (b) v).
            items, raw = items[:-1], item.menu_value
        if len(items) == 1 and isinstance(items[0], Bracket) and items[0].kind != "[":
            inner = items[0]
            if inner.kind == "<":
                if arg.numeric:
                    raise self.error(
                        f"a boolean {_bracketed(inner)} cannot go in a number slot", inner.col
                    )
                return self.value_node(inner)
            return self.round_value(arg, inner, inner.items, inner.raw)
        if self.define and all(isinstance(i, Word) for i in items):
            # An argument of the enclosing define wins over a reporter of the same name: in
            # `define star (size)`, `(size)` is the argument, not the Looks reporter.
            node = self.name_node(raw.strip(), item.col)
            if node is not None and node.opcode == "argument_reporter_string_number":
                return node
        key = key_of(items)
        cands = self.value_candidates(key, items, raw)
        if cands:
            node = self.build(cands, items, item.col)
            if node.spec.shape == "boolean" and arg.numeric:
                raise self.error(f"a boolean ({raw}) cannot go in a number slot", item.col)
            return node
        if all(isinstance(i, Word) for i in items):
            name = raw.strip()
            if arg.kind == "colour":
                return self.colour(raw, item.col)
            if is_number(name):
                return Lit(raw)
            return NameRef(raw)
        if self.dialect == "nl2scratch":
            return Lit(raw)
        raise self.error(
            f"unknown reporter ({raw})", item.col, self.suggest(key, frozenset(VALUE_SHAPES))
        )

    def colour(self, text: str, col: int) -> Lit:
        value = colour_from_text(text)
        if value is None:
            raise self.error(f"'{text}' is not a colour: write #rrggbb or an integer", col)
        return Lit(value)

    def hinted(self, item: Bracket, raw: str) -> Any:
        name = raw.split("::")[0].strip() if "::" in raw else raw.strip()
        line = self.line.number
        if item.hint in ("variables", "variable"):
            self.known_vars.setdefault(name, "")
            return ParsedBlock("data_variable", line, item.col, name=name)
        if item.hint == "list":
            self.known_lists.setdefault(name, "")
            return ParsedBlock("data_listcontents", line, item.col, name=name)
        if item.hint in ("custom-arg", "custom arg"):
            return ParsedBlock("argument_reporter_string_number", line, item.col, name=name)
        return self.value_node(item)

    def menu_value(self, spec: BlockSpec, arg: Arg, item: Bracket) -> Any:
        if item.kind == "<":
            return self.value_node(item)
        if item.kind == "(" and item.menu_value is None and item.items:
            if item.hint or not _plain(item):
                return self.round_value(arg, item, item.items, item.raw)
            return NameRef(item.raw)
        text = item.menu_value if item.menu_value is not None else item.raw
        return Menu(self.checked_choice(spec, arg, text, item.col))

    def checked_choice(self, spec: BlockSpec, arg: Arg, text: str, col: int) -> str:
        value = arg.value_of(text)
        if value is not None:
            return value
        if arg.dynamic or not arg.options:
            return text
        choices = [d for d, _ in arg.options]
        close = difflib.get_close_matches(text.strip()[:SUGGEST_CHARS], choices, n=3, cutoff=0.3)
        raise self.error(
            f"'{text}' is not a choice of this menu of '{spec.scratchblocks}'; "
            f"choices: {', '.join(choices)}",
            col,
            close,
        )

    def field_value(self, spec: BlockSpec, arg: Arg, item: Bracket) -> FieldVal:
        if item.kind == "<":
            raise self.error(f"a menu goes in this slot of '{spec.scratchblocks}'", item.col)
        text = item.menu_value if item.menu_value is not None else item.raw
        return FieldVal(self.checked_choice(spec, arg, text, item.col))

    def variable_field(self, arg: Arg, item: Bracket) -> VarField:
        if item.kind == "<":
            raise self.error("a variable or list name goes here, not a boolean", item.col)
        text = item.menu_value if item.menu_value is not None else item.raw
        name = text.strip()
        vtype = arg.variable_type or ""
        if vtype == "list":
            self.known_lists.setdefault(name, "")
        elif vtype == "broadcast_msg":
            self.known_broadcasts.setdefault(name, "")
        else:
            self.known_vars.setdefault(name, "")
        return VarField(name, vtype)

    def call(self, proc: Procedure, items: list[Item], col: int) -> ParsedBlock:
        slots = [it for it in items if isinstance(it, Bracket)]
        node = ParsedBlock("procedures_call", self.line.number, col, proc=proc)
        text_arg = Arg(name="", kind="text", shadow="text")
        for arg_id, kind, item in zip(proc.ids, proc.kinds, slots, strict=True):
            if kind == "b":
                if item.kind != "<":
                    raise self.error(
                        f"a boolean <...> goes in this slot of '{proc.proccode}'", item.col
                    )
                node.args[arg_id] = self.boolean(item)
            else:
                node.args[arg_id] = self.input_value(proc.proccode, text_arg, item)
        return node


def _bare_words(words) -> list[str]:
    return [w.rstrip("?") for w in words if w and w != "?"]


def _first_word(line: Line) -> str | None:
    it = line.items[0]
    return it.text.lower() if isinstance(it, Word) else None


def _args_of(proc: Procedure, kind: str) -> list[str]:
    return [n for n, k in zip(proc.names, proc.kinds, strict=True) if k == kind]


def _plain(item: Bracket) -> bool:
    return item.items is not None and all(isinstance(i, Word) for i in item.items)


def _text(node: ParsedBlock) -> str:
    return node.spec.scratchblocks if node.spec else node.opcode


def _bracketed(item: Bracket) -> str:
    close = {"(": ")", "[": "]", "<": ">"}[item.kind]
    return f"{item.kind}{item.raw}{close}"
