"""The blocks scenes are made of, read from the block catalogue (Scratch 3's own blocks).

Each :class:`BlockKind` knows its shape, its palette category and how to write it as
scratchblocks text with chosen values: numbers, words, a variable's or a list's name, a reporter
or boolean nested in a slot. The infix operators (``() + ()``, ``<> and <>``) are written inside
their own brackets, so that they parse alone too.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from scratch_gym.program.blockdefs import BlockSpec
from scratch_gym.program.lexer import Bracket, lex_line

# shape -> the shapes the generator speaks of (c1/c2 are both C-blocks; if-else is "c2")
SHAPES = ("hat", "stack", "cap", "c", "reporter", "boolean", "variable")
PALETTE_CATEGORY = {
    "motion": "motion",
    "looks": "looks",
    "sound": "sound",
    "events": "events",
    "control": "control",
    "sensing": "sensing",
    "operators": "operators",
    "variables": "variables",
    "pen": "pen",
}
VARIABLE_PLACEHOLDER, LIST_PLACEHOLDER = "my variable", "my list"
CLOSE = {"(": ")", "[": "]", "<": ">"}
LITERAL_SLOTS = ("number", "text", "angle")
VARIABLE_REPORTERS = ("data_variable", "data_listcontents")
OPERATORS_SHARE = 0.35


@dataclass(frozen=True)
class BlockKind:
    """One catalogue block as the generator uses it."""

    spec: BlockSpec

    @property
    def opcode(self) -> str:
        return self.spec.opcode

    @property
    def shape(self) -> str:
        if self.opcode in VARIABLE_REPORTERS:
            return "variable"
        return "c" if self.spec.shape in ("c1", "c2") else self.spec.shape

    @property
    def category(self) -> str:
        """The palette category (toolbox id) that shows it."""
        return PALETTE_CATEGORY[self.spec.category]

    @property
    def has_else(self) -> bool:
        return len(self.spec.statements) == 2

    @property
    def takes_next(self) -> bool:
        """A block can be stacked below it (not a cap, not forever)."""
        return self.shape in ("hat", "stack", "c") and self.opcode != "control_forever"

    @property
    def stage_ok(self) -> bool:
        return "stage" in self.spec.targets

    def text(self, fill: Callable[[str, Bracket], str] | None = None) -> str:
        """The block's own scratchblocks text; ``fill(kind, bracket)`` writes each slot (None:
        the catalogue's defaults). Reporters and booleans come in their own brackets."""
        items = lex_line(self.spec.scratchblocks, 0).items
        args = iter(self.spec.args)
        words = []
        for item in items:
            if isinstance(item, Bracket):
                default = f"{item.kind}{item.raw}{CLOSE[item.kind]}"
                arg = next(args, None)
                words.append(fill(arg.kind, item) if fill and arg else default)
            else:
                words.append(item.text)
        text = " ".join(words).replace(" ?", "?")
        if self.shape in ("reporter", "boolean", "variable") and not _wrapped(text):
            text = f"({text})" if self.shape != "boolean" else f"<{text}>"
        return text


def _wrapped(text: str) -> bool:
    """Is ``text`` one bracketed expression, its first bracket closing at its end? A ``<`` or
    ``>`` with a space on each side is the comparison operator, not a bracket: ``<(1) < (2)> or
    <[a] > [b]>`` is two booleans, not one."""
    if not text or text[0] not in CLOSE:
        return False
    depth = 0
    for i, ch in enumerate(text):
        if ch in "<>" and 0 < i < len(text) - 1 and text[i - 1] == text[i + 1] == " ":
            continue
        if ch in "([<":
            depth += 1
        elif ch in ")]>":
            depth -= 1
            if depth == 0:
                return i == len(text) - 1
    return False


@lru_cache(maxsize=1)
def block_kinds() -> dict[str, list[BlockKind]]:
    """The usable blocks by shape (those that parse alone, with a variable and a list named)."""
    from scratch_gym.program import ScratchblocksError, catalogue, parse_scripts

    out: dict[str, list[BlockKind]] = {s: [] for s in SHAPES}
    for spec in catalogue:
        if spec.source != "editor" and spec.opcode not in VARIABLE_REPORTERS:
            continue
        if spec.category not in PALETTE_CATEGORY:
            continue
        if spec.shape not in ("hat", "stack", "cap", "c1", "c2", "reporter", "boolean"):
            continue
        if any(a.dynamic and a.kind != "menu" for a in spec.args):
            continue
        kind = BlockKind(spec)
        try:
            parse_scripts(
                script_text(kind, kind.text(), []),
                variables=[VARIABLE_PLACEHOLDER],
                lists=[LIST_PLACEHOLDER],
            )
        except (ScratchblocksError, KeyError, ValueError):
            continue
        out[kind.shape].append(kind)
    return out


def script_text(kind: BlockKind, own: str, body: list[list[str]]) -> str:
    """A block's text as a whole script: a C-block closes with ``end`` (and ``else``)."""
    if kind.shape != "c":
        return own
    lines = [own]
    for i, branch in enumerate(body or [[]] * len(kind.spec.statements)):
        if i:
            lines.append("else")
        lines.extend(branch)
    return "\n".join([*lines, "end"])


def named(text: str, variable: str, list_name: str) -> str:
    """The catalogue's placeholder names replaced by the scene's."""
    return text.replace(VARIABLE_PLACEHOLDER, variable).replace(LIST_PLACEHOLDER, list_name)


def random_number(rng: random.Random) -> str:
    return str(rng.choice((rng.randint(-20, 20), rng.randint(0, 200), rng.choice((5, 15, 90)))))


def pick(rng: random.Random, shape: str, stage: bool = False) -> BlockKind:
    """A random block of ``shape`` (from a random category first, so every category shows)."""
    found = [k for k in block_kinds()[shape] if k.stage_ok or not stage]
    categories = sorted({k.category for k in found})
    category = rng.choice(categories)
    if shape in ("reporter", "boolean") and rng.random() < OPERATORS_SHARE:
        category = "operators"  # the reporters programs use most
    return rng.choice([k for k in found if k.category == category])
