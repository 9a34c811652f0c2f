"""Block indices for composite mode: the program model's rendering with every block numbered.

Blocks are numbered 1, 2, ... depth-first in script order: scripts in the order the program
model renders them (top to bottom, then left to right); in a script, each stack block, then the
reporters and booleans in its inputs (in display order, each before the ones inside it), then
the blocks in its C-slots, then the block below it. Shadow blocks (literals, menus) have no index:
they are edited through their parent's fields.

The numbered text (:meth:`NumberedProgram.text`) is the program model's ``render_scripts``
output with two additions only: every line starts with a column holding the index of the block
it renders (blank for ``else`` and ``end``), and a line whose block holds reporters ends with
``  // N: (text), M: <text>`` naming them. Removing the column and that suffix gives the
rendering exactly (``//`` starts a comment in scratchblocks).

The numbering is a pure function of the target's blocks, so the observation and the action
model each derive it from the VM and agree as long as the VM has not changed in between.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from scratch_gym.program import catalogue as default_catalogue
from scratch_gym.program import render_scripts
from scratch_gym.program.blockdefs import VALUE_SHAPES, Catalogue
from scratch_gym.program.render import render_script_lines, script_order
from scratch_gym.program.sb3blocks import to_sb3

COMMENT = "  // "
_PLACEHOLDER = re.compile(r"%([a-zA-Z])")
VALUE_KINDS = frozenset({"number", "angle", "text", "colour", "menu", "broadcast", "boolean"})


@dataclass(frozen=True)
class NumberedLine:
    """One rendered line: its text, the index of its block (None for else/end), nested indices."""

    text: str
    block: int | None
    nested: tuple[int, ...] = ()


@dataclass
class NumberedProgram:
    """A target's scripts with their block indices (1-based, ``ids[i - 1]`` is block ``i``)."""

    scripts: list[list[NumberedLine]] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    labels: dict[int, str] = field(default_factory=dict)  # index -> the block's own text

    def id_of(self, index: int) -> str:
        return self.ids[index - 1]

    def index_of(self, block_id: str) -> int | None:
        try:
            return self.ids.index(block_id) + 1
        except ValueError:
            return None

    def __len__(self) -> int:
        return len(self.ids)

    def describe(self, index: int) -> str:
        """``block 3 (move (10) steps)``."""
        return f"block {index} ({self.labels.get(index, '?')})"

    def plain(self) -> str:
        """The program model's rendering (what ``render_scripts`` returns)."""
        return "\n\n".join("\n".join(line.text for line in s) for s in self.scripts)

    def text(self) -> str:
        """The rendering with the index column and the nested-reporter comments."""
        width = len(str(len(self.ids)))
        out = []
        for script in self.scripts:
            lines = []
            for line in script:
                head = f"{line.block:>{width}}  " if line.block else " " * (width + 2)
                tail = ""
                if line.nested:
                    tail = COMMENT + ", ".join(f"{n}: {self.labels[n]}" for n in line.nested)
                lines.append(head + line.text + tail)
            out.append("\n".join(lines))
        return "\n\n".join(out)


def procedures(blocks: dict[str, Any]) -> dict[str, list[tuple[str, str]]]:
    """The custom blocks defined in a target's blocks: proccode -> [(input name, "s" or "b")]."""
    out: dict[str, list[tuple[str, str]]] = {}
    for b in blocks.values():
        if not isinstance(b, dict) or b.get("opcode") != "procedures_prototype":
            continue
        m = b.get("mutation") or {}
        names = json.loads(m.get("argumentnames") or "[]")
        kinds = [k for k in _PLACEHOLDER.findall(m.get("proccode", "")) if k in "sbn"]
        out[m.get("proccode", "")] = [
            (n, "b" if k == "b" else "s") for n, k in zip(names, kinds, strict=False)
        ]
    return out


def call_arguments(blocks: dict[str, Any], call: dict[str, Any]) -> dict[str, str]:
    """A procedures_call's input ids -> the input names its definition gives them (else ids)."""
    m = call.get("mutation") or {}
    ids = json.loads(m.get("argumentids") or "[]")
    for b in blocks.values():
        pm = b.get("mutation") or {}
        if b.get("opcode") == "procedures_prototype" and pm.get("proccode") == m.get("proccode"):
            names = dict(
                zip(
                    json.loads(pm.get("argumentids") or "[]"),
                    json.loads(pm.get("argumentnames") or "[]"),
                    strict=False,
                )
            )
            return {i: names.get(i, i) for i in ids}
    return {i: i for i in ids}


def number_blocks(blocks: dict[str, Any], catalogue: Catalogue | None = None) -> NumberedProgram:
    """Number a target's blocks (the VM's in-memory form, e.g. ``composite.blocks``)."""
    return _Numberer(blocks, catalogue or default_catalogue).run()


class _Numberer:
    def __init__(self, blocks: dict[str, Any], cat: Catalogue) -> None:
        self.blocks = blocks
        self.cat = cat
        self.program = NumberedProgram()

    def run(self) -> NumberedProgram:
        rendered = render_script_lines(self.blocks, "standard", self.cat)
        for top, lines in zip(script_order(to_sb3(self.blocks)), rendered, strict=True):
            entries = self.script(top)
            if len(entries) != len(lines):
                raise RuntimeError(
                    f"numbering found {len(entries)} lines in the script at {top}, "
                    f"the program model rendered {len(lines)}"
                )
            self.program.scripts.append(
                [NumberedLine(text, b, n) for text, (b, n) in zip(lines, entries, strict=True)]
            )
            for text, (b, _) in zip(lines, entries, strict=True):
                if b is not None and b not in self.program.labels:
                    self.program.labels[b] = text.strip()
        return self.program

    def add(self, bid: str) -> int:
        self.program.ids.append(bid)
        return len(self.program.ids)

    def script(self, top: str) -> list[tuple[int | None, tuple[int, ...]]]:
        spec = self.cat.get(self.blocks[top]["opcode"])
        if spec is not None and spec.shape in VALUE_SHAPES:
            index = self.add(top)
            return [(index, self.reporters_in(top))]
        return self.stack(top)

    def stack(self, bid: str | None) -> list[tuple[int | None, tuple[int, ...]]]:
        entries: list[tuple[int | None, tuple[int, ...]]] = []
        while bid:
            b = self.blocks[bid]
            index = self.add(bid)
            entries.append((index, self.reporters_in(bid)))
            spec = self.cat.get(b["opcode"])
            if spec is not None and spec.statements:
                for i, name in enumerate(spec.statements):
                    if i:
                        entries.append((None, ()))  # else
                    child = (b.get("inputs", {}).get(name) or {}).get("block")
                    if child:
                        entries.extend(self.stack(child))
                entries.append((None, ()))  # end
            bid = b.get("next")
        return entries

    def reporters_in(self, bid: str) -> tuple[int, ...]:
        """Indices of the reporters in ``bid``'s inputs, depth-first (numbering them)."""
        out: list[int] = []
        for child in self.value_children(bid):
            index = self.add(child)
            self.program.labels[index] = self.reporter_text(child)
            out.append(index)
            out.extend(self.reporters_in(child))
        return tuple(out)

    def value_children(self, bid: str) -> list[str]:
        """Non-shadow blocks in ``bid``'s value inputs, in display order."""
        b = self.blocks[bid]
        inputs = b.get("inputs", {})
        spec = self.cat.get(b["opcode"])
        if b["opcode"] == "procedures_definition":
            return []  # its prototype (and the argument reporters in it) belong to its line
        if b["opcode"] == "procedures_call":
            names = json.loads((b.get("mutation") or {}).get("argumentids", "[]"))
        elif spec is not None and spec.source != "structural":
            names = [a.name for a in spec.args if a.kind in VALUE_KINDS]
        else:
            statements = set(spec.statements) if spec else set()
            names = [n for n in inputs if n not in statements]
        out = []
        for name in names:
            inp = inputs.get(name) or {}
            child = inp.get("block")
            if child and child != inp.get("shadow") and child in self.blocks:
                if not self.blocks[child].get("shadow"):
                    out.append(child)
        return out

    def reporter_text(self, bid: str) -> str:
        """The program model's text of one reporter (rendered alone, with what is inside it)."""
        sub: dict[str, Any] = {}
        todo = [bid]
        while todo:
            cur = todo.pop()
            b = self.blocks[cur]
            sub[cur] = b
            for inp in (b.get("inputs") or {}).values():
                todo.extend(x for x in (inp.get("block"), inp.get("shadow")) if x in self.blocks)
        sub[bid] = {**self.blocks[bid], "topLevel": True, "parent": None, "x": 0, "y": 0}
        return render_scripts(sub, catalogue=self.cat)
