"""Which blocks a golden solution adds or changes relative to the starting project, and how to
delete one of them the way Scratch's "Delete Block" does.

A *unit* is a non-shadow block of a target, or a compact variable/list reporter sitting in an
input (sb3 stores those as primitives, not blocks). Units are compared between projects by a
signature: opcode, fields, literal inputs, and the parent's opcode and fields with the slot the
unit sits in (not the parent's literals). Golden units whose signature occurs more often than in
the start are "changed", but only as many of them as the surplus: each start unit is first paired
with the golden unit of the same signature that is most likely the same block (the same block id,
else the most similar script around it), so that of two identical hats in the golden project only
the one the golden added counts, not the start script's unchanged one.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass
from typing import Any

COMPACT_OPCODES = {12: "data_variable", 13: "data_listcontents"}


@dataclass(frozen=True)
class Unit:
    """One removable block: ``block_id``, or the compact reporter in ``block_id``'s ``input``."""

    target: str
    block_id: str
    opcode: str
    input: str | None = None

    def describe(self) -> str:
        where = f"{self.target}: {self.opcode}"
        if self.input:
            return f"{where} (in input {self.input} of {self.block_id})"
        return f"{where} ({self.block_id})"


def _targets(project: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {("Stage" if t.get("isStage") else t["name"]): t for t in project["targets"]}


def _is_block(b: Any) -> bool:
    return isinstance(b, dict) and "opcode" in b


def _literal(blocks: dict[str, Any], value: Any) -> Any:
    """The literal a shadow input holds (primitive value, or a shadow menu's field values)."""
    if isinstance(value, list):
        return tuple(str(v) for v in value[1:2]) if value and value[0] < 12 else ("compact",)
    block = blocks.get(value) if isinstance(value, str) else None
    if _is_block(block) and block.get("shadow"):
        return tuple(sorted((k, str(v[0])) for k, v in block.get("fields", {}).items()))
    return None


def _own_sig(blocks: dict[str, Any], block: dict[str, Any]) -> tuple:
    fields = tuple(sorted((k, str(v[0])) for k, v in block.get("fields", {}).items()))
    literals = []
    for name, inp in sorted(block.get("inputs", {}).items()):
        if not isinstance(inp, list) or len(inp) < 2:
            continue
        if inp[0] == 1:  # shadow only: a literal
            literals.append((name, _literal(blocks, inp[1])))
    mutation = block.get("mutation", {}).get("proccode")
    return (block["opcode"], fields, tuple(literals), mutation)


def _parent_sig(block: dict[str, Any]) -> tuple:
    """A parent as its children see it: opcode, fields and custom block (not its literals, so
    that editing a literal changes only that block)."""
    fields = tuple(sorted((k, str(v[0])) for k, v in block.get("fields", {}).items()))
    return (block["opcode"], fields, block.get("mutation", {}).get("proccode"))


def _slot(blocks: dict[str, Any], block_id: str, parent: dict[str, Any] | None) -> str:
    if parent is None:
        return "top"
    if parent.get("next") == block_id:
        return "next"
    for name, inp in parent.get("inputs", {}).items():
        if isinstance(inp, list) and block_id in inp[1:]:
            return name
    return "?"


def units(project: dict[str, Any]) -> list[tuple[Unit, tuple]]:
    """Every unit of a project with its signature, in project order."""
    out: list[tuple[Unit, tuple]] = []
    for name, target in _targets(project).items():
        blocks = target.get("blocks", {})
        for bid, block in blocks.items():
            if not _is_block(block) or block.get("shadow"):
                continue
            parent = blocks.get(block.get("parent")) if block.get("parent") else None
            parent_sig = _parent_sig(parent) if _is_block(parent) else None
            sig = (name, _own_sig(blocks, block), parent_sig, _slot(blocks, bid, parent))
            out.append((Unit(name, bid, block["opcode"]), sig))
            for inp_name, inp in sorted(block.get("inputs", {}).items()):
                if isinstance(inp, list) and len(inp) >= 2 and isinstance(inp[1], list):
                    kind = inp[1][0]
                    if kind in COMPACT_OPCODES:
                        opcode = COMPACT_OPCODES[kind]
                        csig = (name, (opcode, str(inp[1][1])), _parent_sig(block), inp_name)
                        out.append((Unit(name, bid, opcode, inp_name), csig))
    return out


def _script_contexts(project: dict[str, Any]) -> dict[Unit, Counter]:
    """Each unit's script (the stack it sits in, from its top block) as a multiset of signatures."""
    tops: dict[Unit, tuple[str, str]] = {}
    targets = _targets(project)
    all_units = units(project)
    for unit, _sig in all_units:
        blocks = targets[unit.target].get("blocks", {})
        bid, seen = unit.block_id, set()
        while _is_block(blocks.get(bid)) and blocks[bid].get("parent") and bid not in seen:
            seen.add(bid)
            bid = blocks[bid]["parent"]
        tops[unit] = (unit.target, bid)
    scripts: dict[tuple[str, str], Counter] = {}
    for unit, sig in all_units:
        scripts.setdefault(tops[unit], Counter())[sig] += 1
    return {unit: scripts[tops[unit]] for unit, _sig in all_units}


def changed_units(start: dict[str, Any], golden: dict[str, Any]) -> list[Unit]:
    """Golden units added or changed: for each signature, the golden units beyond the start's
    count, after pairing every start unit with its most similar golden unit of that signature."""
    start_units, golden_units = units(start), units(golden)
    by_sig: dict[tuple, list[Unit]] = {}
    for unit, sig in start_units:
        by_sig.setdefault(sig, []).append(unit)
    golden_by_sig: dict[tuple, list[Unit]] = {}
    for unit, sig in golden_units:
        golden_by_sig.setdefault(sig, []).append(unit)
    start_ctx: dict[Unit, Counter] | None = None
    golden_ctx: dict[Unit, Counter] | None = None
    changed: set[Unit] = set()
    for sig, gs in golden_by_sig.items():
        ss = by_sig.get(sig, [])
        if len(gs) <= len(ss):
            continue
        if not ss:
            changed.update(gs)
            continue
        if start_ctx is None or golden_ctx is None:
            start_ctx, golden_ctx = _script_contexts(start), _script_contexts(golden)
        pairs = sorted(
            (
                (g.block_id == s.block_id, sum((golden_ctx[g] & start_ctx[s]).values()), -i, -j)
                for i, g in enumerate(gs)
                for j, s in enumerate(ss)
            ),
            reverse=True,
        )
        kept: set[int] = set()
        used: set[int] = set()
        for _same_id, _overlap, gi, si in pairs:
            if -gi not in kept and -si not in used:
                kept.add(-gi)
                used.add(-si)
        changed.update(g for i, g in enumerate(gs) if i not in kept)
    return [u for u, _sig in golden_units if u in changed]


def remove_unit(project: dict[str, Any], unit: Unit) -> dict[str, Any]:
    """A copy of the project with ``unit`` deleted as Scratch's "Delete Block" does: its inputs
    and inner stacks go with it, the block below moves up; a reporter leaves its slot's shadow."""
    project = copy.deepcopy(project)
    blocks = _targets(project)[unit.target]["blocks"]
    if unit.input is not None:
        inp = blocks[unit.block_id]["inputs"][unit.input]
        _clear_slot(blocks[unit.block_id]["inputs"], unit.input, inp)
        return project
    block = blocks[unit.block_id]
    parent_id = block.get("parent")
    parent = blocks.get(parent_id) if parent_id else None
    below = block.get("next")
    if block.get("topLevel") or parent is None:
        if below:
            blocks[below].update(
                parent=None, topLevel=True, x=block.get("x", 0), y=block.get("y", 0)
            )
    elif parent.get("next") == unit.block_id:
        parent["next"] = below
        if below:
            blocks[below]["parent"] = parent_id
    else:
        for name, inp in list(parent.get("inputs", {}).items()):
            if isinstance(inp, list) and unit.block_id in inp[1:]:
                if below and name.startswith("SUBSTACK"):
                    parent["inputs"][name] = [2, below]
                    blocks[below]["parent"] = parent_id
                else:
                    _clear_slot(parent["inputs"], name, inp)
    block["next"] = None
    _delete_tree(blocks, unit.block_id)
    return project


def _clear_slot(inputs: dict[str, Any], name: str, inp: list[Any]) -> None:
    if len(inp) >= 3 and inp[2] is not None:
        inputs[name] = [1, inp[2]]  # the obscured shadow shows again
    else:
        del inputs[name]


def _delete_tree(blocks: dict[str, Any], block_id: str) -> None:
    block = blocks.pop(block_id, None)
    if not _is_block(block):
        return
    for inp in block.get("inputs", {}).values():
        if isinstance(inp, list):
            for ref in inp[1:]:
                if isinstance(ref, str) and ref in blocks:
                    _delete_tree(blocks, ref)
    nxt = block.get("next")
    if nxt and nxt in blocks and blocks[nxt].get("parent") == block_id:
        _delete_tree(
            blocks, nxt
        )  # only inside a removed C-block's stack (the block's own next was detached)
