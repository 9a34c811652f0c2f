"""Instructions for a drag, in many phrasings: several templates per relation, verbs and
synonyms, several ways to name a block (its bare label, its label with the scene's values, its
opcode id, words for symbols, a partial label), and where a name alone is ambiguous an ordinal,
the loop it sits in, whether it stands alone ("the lone ...") or which side its script lies on
("... on the left").

Written from Scratch's vocabulary and everyday English, never from a benchmark's task files.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from scratch_gym.program import catalogue, render_block
from scratch_gym.single_drag.generation.blocks import block_kinds
from scratch_gym.single_drag.tokens import SYMBOL_WORDS

VERBS = ("Drag", "Place", "Put", "Attach", "Connect", "Insert", "Snap", "Drop", "Move")
PALETTES = ("palette", "block palette", "flyout", "blocks menu", "block menu", "toolbox")
LONE = ("lone", "standalone", "free", "loose", "separate", "single")
ON_CANVAS = ("", "", " on the canvas", " in the code area", " on the workspace",
             " in the scripting area")  # fmt: skip
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")
ENDINGS = ("", "", "", " to connect them", " so that they snap together", " so they join")
SLOT_KINDS = ("number", "text", "angle", "boolean", "menu", "colour", "broadcast")


@dataclass(frozen=True)
class Named:
    """A block as the instruction names it: its label and how to qualify it."""

    label: str
    qualifier: str = ""


def bare_label(opcode: str) -> str:
    """The block's words without its slots: ``move steps``, ``if then``, ``x position``."""
    spec = catalogue.get(opcode)
    return opcode if spec is None else spec.bare_label


def with_else(opcode: str, text: str) -> str:
    """A block's one-line text with the ``else`` an if-else shows (``BlockSpec.with_else``)."""
    spec = catalogue.get(opcode)
    return text if spec is None else spec.with_else(text)


def plain(text: str) -> str:
    """A rendered block without brackets: ``move 25 steps``."""
    text = re.sub(r" v([\])])", r"\1", text)
    return re.sub(r"\s+", " ", re.sub(r"[()\[\]<>]", " ", text.replace("::", " "))).strip()


class Labeller:
    """Names blocks of the edited target (rendered with their values) and palette blocks.

    ``shown``: the ids of the blocks the view shows. Ordinals, sides and "lone" then single a
    block out among the equally named blocks in view only, as a reader of the screen counts
    them (default: every block of the target)."""

    def __init__(
        self, rng: random.Random, blocks: dict[str, Any], shown: set[str] | None = None
    ) -> None:
        self.rng = rng
        self.blocks = blocks
        self.every = _reading_order(blocks)  # every block, for one out of view
        self.order = self.every if shown is None else [b for b in self.every if b in shown]

    def label(self, block_id: str, style: str) -> str:
        b = self.blocks[block_id]
        opcode = b.get("opcode", "")
        if style == "opcode":
            return opcode
        if style in ("bare", "symbol") or opcode in ("data_variable", "data_listcontents"):
            if opcode in ("data_variable", "data_listcontents"):
                return plain(render_block(self.blocks, block_id))
            return symbol_label(opcode, self.rng) if style == "symbol" else bare_label(opcode)
        text = with_else(opcode, render_block(self.blocks, block_id))
        if _wrapped_value(text):
            text = text[1:-1]
        text = text.replace("@greenFlag", "green flag")
        return plain(text) if style == "plain" else text

    def styles(self, opcode: str) -> list[str]:
        out = ["values", "values", "plain", "bare", "bare", "opcode"]
        if opcode in SYMBOL_OPCODES:
            out += ["symbol", "symbol"]
        return out

    def name(self, block_id: str, exclude: set[str] = frozenset()) -> Named:
        """A label for a canvas block, qualified where another block shows the same label (a
        block out of view, such as the top of a tall script, is counted among every block)."""
        opcode = self.blocks[block_id]["opcode"]
        style = self.rng.choice(self.styles(opcode))
        label = self.label(block_id, style)
        order = self.order if block_id in self.order else self.every
        same = [
            other for other in order if other not in exclude and self.label(other, style) == label
        ]
        if len(same) <= 1:
            return Named(label)
        if style != "values":
            values = self.label(block_id, "values")
            if sum(self.label(o, "values") == values for o in order if o not in exclude) == 1:
                return Named(values)
        container = self._container(block_id)
        if container is not None and self.rng.random() < 0.5:
            outer = self.label(container, "bare")
            if sum(self.label(o, "bare") == outer for o in order) == 1:
                loop = "loop" if "repeat" in outer or "forever" in outer else "block"
                return Named(label, f" inside the '{outer}' {loop}")
        lone = [other for other in same if _is_lone(self.blocks, other)]
        if lone == [block_id] and self.rng.random() < 0.6:
            return Named(label, self.rng.choice(LONE))
        side = _side(self.blocks, block_id, same)
        if side is not None and self.rng.random() < 0.6:
            return Named(label, f" on the {side}")
        nth = same.index(block_id)
        return (
            Named(
                label,
                "",
            )
            if nth >= len(ORDINALS)
            else Named(label, ORDINALS[nth])
        )

    def _container(self, block_id: str) -> str | None:
        """The C-block whose mouth holds the block's stack, if any."""
        seen, child = 0, block_id
        parent = self.blocks[child].get("parent")
        while parent and seen < 200:
            p = self.blocks[parent]
            inputs = p.get("inputs", {})
            for name in ("SUBSTACK", "SUBSTACK2"):
                ref = inputs.get(name)
                if ref and ref[1] == child:
                    return parent
            child, parent, seen = parent, p.get("parent"), seen + 1
        return None


SYMBOL_OPCODES = {
    "operator_gt": ">",
    "operator_lt": "<",
    "operator_equals": "=",
    "operator_add": "+",
    "operator_subtract": "-",
    "operator_multiply": "*",
    "operator_divide": "/",
}


def symbol_label(opcode: str, rng: random.Random) -> str:
    """An operator named by words for its symbol: ``greater than``, ``plus``."""
    symbol = SYMBOL_OPCODES.get(opcode)
    if symbol is None:
        return bare_label(opcode)
    return rng.choice(SYMBOL_WORDS[symbol] + (symbol,))


def palette_label(
    opcode: str, rng: random.Random, default_text: str, distinct: bool = False
) -> str:
    """A palette block's name: its bare label, its palette text, opcode, or symbol words.
    ``distinct``: never the bare label where another palette block shares it (``shared_bare``):
    the text then names it ('set [color v] effect to (0)', not 'set effect to')."""
    styles = ["bare", "bare", "text", "text", "opcode"]
    if opcode in SYMBOL_OPCODES:
        styles += ["symbol", "symbol"]
    style = rng.choice(styles)
    if distinct and style == "bare" and bare_label(opcode) in shared_bare():
        style = "text"
    if style == "opcode":
        return opcode
    if style == "symbol":
        return symbol_label(opcode, rng)
    if style == "text":
        text = default_text[1:-1] if _wrapped_value(default_text) else default_text
        text = with_else(opcode, text)
        text = text.replace("@greenFlag", "green flag")
        return text if rng.random() < 0.6 else plain(text)
    return bare_label(opcode)


@lru_cache(maxsize=1)
def shared_bare() -> frozenset[str]:
    """The bare labels that more than one palette block shows ('set effect to' is in Looks and
    in Sound; 'length of' in Operators and Variables), from the generator's block catalogue."""
    seen: dict[str, set[str]] = {}
    for kinds in block_kinds().values():
        for kind in kinds:
            seen.setdefault(kind.spec.bare_label, set()).add(kind.opcode)
    return frozenset(label for label, opcodes in seen.items() if len(opcodes) > 1 and label)


def _wrapped_value(text: str) -> bool:
    return len(text) > 1 and text[0] + text[-1] in ("()", "<>")


def _is_lone(blocks: dict[str, Any], block_id: str) -> bool:
    """Whether the block stands alone on the canvas: in no script, nothing joined under it."""
    b = blocks[block_id]
    return bool(b.get("topLevel")) and not b.get("next")


def script_top(blocks: dict[str, Any], block_id: str) -> str:
    """The top block of the block's script (its parents followed up, at most 200)."""
    seen, bid = 0, block_id
    while blocks[bid].get("parent") and seen < 200:
        bid, seen = blocks[bid]["parent"], seen + 1
    return bid


def stack_top(blocks: dict[str, Any], block_id: str) -> str:
    """The top block of the stack the block is joined into, one under another (``next`` links
    only: a block in a mouth or slot starts its own stack there)."""
    seen, bid = 0, block_id
    while seen < 200:
        parent = blocks[bid].get("parent")
        if not parent or blocks[parent].get("next") != bid:
            return bid
        bid, seen = parent, seen + 1
    return bid


def _script_x(blocks: dict[str, Any], block_id: str) -> float:
    """The workspace x of the top of the block's script."""
    return float(blocks[script_top(blocks, block_id)].get("x", 0))


SIDE_GAP = 150.0  # workspace units: scripts at least this far apart read as left and right


def _side(blocks: dict[str, Any], block_id: str, same: list[str]) -> str | None:
    """'left' or 'right' where the block's script lies clearly left (right) of every other
    block in ``same`` (blocks showing the same label), else None."""
    x = _script_x(blocks, block_id)
    others = [_script_x(blocks, o) for o in same if o != block_id]
    if others and all(o >= x + SIDE_GAP for o in others):
        return "left"
    if others and all(o <= x - SIDE_GAP for o in others):
        return "right"
    return None


def _reading_order(blocks: dict[str, Any]) -> list[str]:
    """Non-shadow blocks in reading order: scripts top to bottom, each depth-first."""
    tops = sorted(
        (b.get("y", 0), b.get("x", 0), bid)
        for bid, b in blocks.items()
        if isinstance(b, dict) and b.get("topLevel") and not b.get("shadow")
    )
    out: list[str] = []

    def visit(bid: str | None) -> None:
        while bid and isinstance(blocks.get(bid), dict) and len(out) < 1000:
            b = blocks[bid]
            out.append(bid)
            for ref in b.get("inputs", {}).values():
                if len(ref) > 1 and isinstance(ref[1], str) and not blocks[ref[1]].get("shadow"):
                    visit(ref[1])
            bid = b.get("next")

    for *_, bid in tops:
        visit(bid)
    return out


# -- phrases ------------------------------------------------------------------------------------
def quoted(named: Named, rng: random.Random, article: bool = True) -> str:
    """``'move (10) steps'``, ``the second 'move' block``, ``the lone 'move' block``, ``the
    'if' block inside the ...``, ``the 'move' block on the left``."""
    q = f"'{named.label}'"
    if named.qualifier and (named.qualifier in ORDINALS or named.qualifier in LONE):
        return f"the {named.qualifier} {q} block"
    if named.qualifier:
        return f"the {q} block{named.qualifier}"
    if not article:
        return q
    return rng.choice((q, f"the {q} block", f"the {q} block", f"the existing {q} block"))


def source_phrase(
    origin: str, label: Named, rng: random.Random, category: str, twin: bool = False
) -> str:
    """How the instruction names the block to drag. ``twin``: a block of the same opcode shows
    on the other side (the palette for a canvas source, the canvas for a palette one), so the
    phrase always says where the block is."""
    q = f"'{label.label}'"
    if origin == "palette":
        palette = rng.choice(PALETTES)
        phrases = [
            f"the {q} block from the {palette}",
            f"a {q} block from the {palette}",
            f"a new {q} block",
            f"the {q} block from the {category.capitalize()} category",
            f"a {q} block from the {category.capitalize()} blocks",
        ]
        if not twin:
            phrases.append(f"the {q} block")
        return rng.choice(phrases)
    if label.qualifier:
        return quoted(label, rng)
    where = rng.choice([w for w in ON_CANVAS if w or not twin])
    if origin == "canvas_block":
        return rng.choice(
            (
                f"the {rng.choice(LONE)} {q} block{where}",
                f"the {q} block{where}",
                f"the existing {q} block{where}",
            )
        )
    return rng.choice(
        (
            f"the stack starting with {q}{where}",
            f"the script that starts with {q}{where}",
            f"the stack headed by {q}",
            f"the {q} stack{where}",
            f"the group of blocks beginning with {q}",
            f"the whole stack that begins with {q}",
        )
    )


def slot_phrase(
    rng: random.Random, kind: str, opcode: str, input_name: str, value: str | None
) -> str:
    """Which input of the target: ordinals, the input's name, its current value."""
    spec = catalogue.get(opcode)
    slots = [a.name for a in spec.args if a.kind in SLOT_KINDS] if spec else [input_name]
    choices = []
    if len(slots) > 1 and input_name in slots:
        ordinal = ORDINALS[slots.index(input_name)]
        choices += [f"the {ordinal} input slot of", f"the {ordinal} slot of",
                    f"the {ordinal} input of"]  # fmt: skip
        if opcode in ("operator_and", "operator_or") or kind == "condition":
            side = ("left", "right")[min(slots.index(input_name), 1)]
            choices += [f"the {side} slot of", f"the {ordinal} operand of"]
    else:
        choices += ["the input slot of", "the slot of", "the empty slot of"]
    if kind == "condition" and input_name == "CONDITION":
        choices = ["the condition slot of", "the condition of", "the hexagonal slot of",
                   "the empty condition slot of", "the boolean slot of"]  # fmt: skip
    elif not any(ch.isdigit() for ch in input_name) and kind == "value_slot":
        choices.append(f"the {input_name.lower()} slot of")
    if value not in (None, "") and kind == "value_slot":
        choices += [f"the slot holding {value} in", f"the '{value}' input of"]
    return rng.choice(choices)


def instruction(
    rng: random.Random,
    kind: str,
    source: str,
    target: str,
    slot: str | None = None,
    extra: dict[str, str] | None = None,
    script_end_weight: int = 1,
) -> str:
    """The sentence for a relation ``kind``: ``source`` and ``target`` are phrases already.
    ``script_end_weight``: how many of the below templates say "at the end of the script that
    starts with 'A'", where the target ends A's stack."""
    extra = extra or {}
    verb = rng.choice(VERBS)
    end = rng.choice(ENDINGS)
    t = target
    if kind == "below":
        options = [f"directly below {t}", f"below {t}", f"under {t}", f"right under {t}",
                   f"beneath {t}", f"right after {t}", f"so that it comes right after {t}",
                   f"to the bottom of {t}", f"so it runs after {t}"]  # fmt: skip
        if "script_top" in extra:
            phrase = f"at the end of the script that starts with {extra['script_top']}"
            options += [phrase] * script_end_weight
        if rng.random() < 0.15:
            return f"Under {t}, {verb.lower()} {source}."
    elif kind == "insert":
        n = extra["next"]
        options = [f"between {t} and {n}", f"between {t} and {n}", f"directly below {t}",
                   f"right after {t}, before {n}", f"under {t} so that it sits above {n}"]  # fmt: skip
    elif kind == "above":
        options = [f"directly above {t}", f"on top of {t}", f"above {t}",
                   f"on top of the stack starting with {t}", f"so that {t} comes right after it",
                   f"at the top of the script that begins with {t}"]  # fmt: skip
    elif kind == "c_mouth":
        options = [f"inside {t}", f"into {t}", f"into the mouth of {t}",
                   f"into the first substack of {t}", f"as the first block inside {t}"]  # fmt: skip
        if extra.get("empty"):
            options.append(f"into the empty mouth of {t}")
        if extra.get("if_else"):
            options += [f"into the 'if' branch of {t}", f"into the first branch of {t}"]
        if rng.random() < 0.15:
            return f"Inside {t}, {verb.lower()} {source}."
    elif kind == "else":
        options = [f"into the else branch of {t}", f"into the second substack of {t}",
                   f"under 'else' in {t}", f"into the 'else' part of {t}",
                   f"into the second branch of {t}"]  # fmt: skip
    else:  # value_slot, condition
        slot = slot or "the slot of"
        if rng.random() < 0.2:
            return f"Fill {slot} {t} with {source}."
        options = [f"into {slot} {t}", f"in {slot} {t}"]
    return f"{verb} {source} {rng.choice(options)}{end}."
