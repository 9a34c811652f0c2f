"""The block catalogue: every block the program model knows, read from ``catalogue.json``.

``catalogue.json`` is generated from the pinned editor by ``python -m
scratch_gym.editor.catalogue_builder``; do not edit it by hand. Each block has an opcode, a
category, a shape (``hat``, ``stack``, ``cap``, ``c1``, ``c2``, ``reporter``, ``boolean``), its
arguments in display order (inputs with their shadow types and defaults, fields and menus with
their choices), its statement inputs, and its scratchblocks pattern (plus accepted aliases and the
NL2Scratch corpus dialect's pattern where that differs).

Argument kinds: ``number``, ``angle``, ``text``, ``colour`` (inputs with a shadow of that type),
``menu`` (an input whose shadow is a menu block), ``broadcast`` (the broadcast input),
``boolean`` (a hexagonal input), ``field`` (a dropdown on the block), ``variable`` (a variable,
list or broadcast field). Menus list ``options`` as ``[display, value]`` pairs; a ``dynamic``
menu also lists names from the project (``sprite``, ``costume``, ``backdrop``, ``sound``,
``broadcast``, ``variable``, ``list``, ``property``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from scratch_gym.program.lexer import Bracket, key_of, lex_line

CATALOGUE_PATH = Path(__file__).with_name("catalogue.json")
STATEMENT_SHAPES = frozenset({"hat", "stack", "cap", "c1", "c2"})
VALUE_SHAPES = frozenset({"reporter", "boolean"})
NUMBER_SHADOWS = {
    "math_number": 4,
    "math_positive_number": 5,
    "math_whole_number": 6,
    "math_integer": 7,
    "math_angle": 8,
    "colour_picker": 9,
    "text": 10,
}


@dataclass(frozen=True)
class Arg:
    """One argument slot of a block (an input or a field), in display order."""

    name: str
    kind: str
    shadow: str | None = None  # the shadow block's opcode, for inputs
    field: str | None = None  # the field holding the value (menus: the shadow's field)
    default: str = ""
    options: tuple[tuple[str, str], ...] = ()
    dynamic: str | None = None
    variable_type: str | None = None  # "", "list" or "broadcast_msg" for variable fields

    @property
    def numeric(self) -> bool:
        return self.kind in ("number", "angle")

    def value_of(self, text: str) -> str | None:
        """The menu value that ``text`` (a display name or a value) stands for, or None."""
        for display, value in self.options:
            if text == value or text == display:
                return value
        low = text.strip().lower()
        for display, value in self.options:
            if low == value.lower() or low == display.lower():
                return value
        return None

    def display_of(self, value: str) -> str:
        for display, val in self.options:
            if val == value:
                return display
        return value


@dataclass(frozen=True)
class Pattern:
    """A text pattern: words and ``None`` for each slot (slots in argument order), and its key."""

    text: str
    parts: tuple[str | None, ...]
    key: str


def parse_pattern(text: str) -> Pattern:
    """Split a pattern such as ``move (10) steps`` into words and slots."""
    items = lex_line(text, 0).items
    parts = tuple(None if isinstance(it, Bracket) else it.text for it in items)
    return Pattern(text, parts, key_of(items))


@dataclass(frozen=True)
class BlockSpec:
    """One block of the catalogue."""

    opcode: str
    category: str
    shape: str
    args: tuple[Arg, ...]
    statements: tuple[str, ...]
    scratchblocks: str
    aliases: tuple[str, ...] = ()
    nl2scratch: str | None = None
    targets: tuple[str, ...] = ("sprite", "stage")
    source: str = "editor"
    extra: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    @cached_property
    def pattern(self) -> Pattern:
        return parse_pattern(self.scratchblocks)

    def with_else(self, header: str) -> str:
        """``header`` (the block's one-line text) with the word a block with two mouths shows
        between them: ``if <> then else`` (scratchblocks writes the ``else`` on a line of its
        own, so a header without it would name the plain ``if`` block too)."""
        return f"{header} else" if len(self.statements) > 1 else header

    @cached_property
    def bare_label(self) -> str:
        """The block's words without its slots: ``move steps``, ``if then``, ``x position``,
        ``if then else`` (``with_else``)."""
        words = [p.replace("@greenFlag", "green flag") for p in self.pattern.parts if p]
        return self.with_else(" ".join(words).replace(" ?", "?"))

    @cached_property
    def dialect_pattern(self) -> Pattern:
        return parse_pattern(self.nl2scratch) if self.nl2scratch else self.pattern

    @cached_property
    def all_patterns(self) -> tuple[Pattern, ...]:
        texts = [self.scratchblocks, *self.aliases]
        if self.nl2scratch:
            texts.append(self.nl2scratch)
        return tuple(parse_pattern(t) for t in dict.fromkeys(texts))

    def arg(self, name: str) -> Arg:
        for a in self.args:
            if a.name == name:
                return a
        raise KeyError(f"{self.opcode} has no argument {name}")

    @property
    def is_statement(self) -> bool:
        return self.shape in STATEMENT_SHAPES

    @property
    def is_value(self) -> bool:
        return self.shape in VALUE_SHAPES


class Catalogue:
    """All blocks, by opcode; ``catalogue()`` returns the catalogue itself."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.editor = data.get("editor", {})
        self.blocks: dict[str, BlockSpec] = {}
        for opcode, b in data["blocks"].items():
            args = tuple(
                Arg(
                    name=a["name"],
                    kind=a["kind"],
                    shadow=a.get("shadow"),
                    field=a.get("field"),
                    default=a.get("default", ""),
                    options=tuple((o[0], o[1]) for o in a.get("options", [])),
                    dynamic=a.get("dynamic"),
                    variable_type=a.get("variable_type"),
                )
                for a in b["args"]
            )
            self.blocks[opcode] = BlockSpec(
                opcode=opcode,
                category=b["category"],
                shape=b["shape"],
                args=args,
                statements=tuple(b.get("statements", [])),
                scratchblocks=b["scratchblocks"],
                aliases=tuple(b.get("aliases", [])),
                nl2scratch=b.get("nl2scratch"),
                targets=tuple(b.get("targets", ["sprite", "stage"])),
                source=b.get("source", "editor"),
                extra=b.get("extra", {}),
            )
        self.sensing_of_properties: dict[str, list[str]] = data.get("sensing_of_properties", {})

    def __call__(self) -> Catalogue:
        return self

    def __contains__(self, opcode: object) -> bool:
        return opcode in self.blocks

    def __iter__(self):
        return iter(self.blocks.values())

    def __len__(self) -> int:
        return len(self.blocks)

    def block(self, opcode: str) -> BlockSpec:
        """The block ``opcode`` (KeyError naming it when unknown)."""
        try:
            return self.blocks[opcode]
        except KeyError:
            raise KeyError(f"no block {opcode!r} in the catalogue") from None

    def get(self, opcode: str) -> BlockSpec | None:
        return self.blocks.get(opcode)

    def by_category(self, category: str) -> list[BlockSpec]:
        return [b for b in self.blocks.values() if b.category == category]

    @property
    def categories(self) -> list[str]:
        return list(dict.fromkeys(b.category for b in self.blocks.values()))

    @cached_property
    def index(self) -> dict[str, list[tuple[BlockSpec, Pattern]]]:
        """Pattern key (``move _ steps``) -> the blocks and patterns that spell it."""
        out: dict[str, list[tuple[BlockSpec, Pattern]]] = {}
        for spec in self.blocks.values():
            if spec.source == "structural":
                continue
            for pat in spec.all_patterns:
                entries = out.setdefault(pat.key, [])
                if not any(s.opcode == spec.opcode for s, _ in entries):
                    entries.append((spec, pat))
        return out


def load_catalogue(path: str | Path = CATALOGUE_PATH) -> Catalogue:
    """Read the catalogue data file."""
    return Catalogue(json.loads(Path(path).read_text(encoding="utf-8")))
