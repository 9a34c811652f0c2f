"""Block trees for the oracles' edit planner: a target's scripts from sb3 or live VM blocks.

A :class:`BlockTree` is one non-shadow block: its own fields, the literal in each input's
shadow, the reporter in each input, its statement stacks and the ``add_block`` options that
make it. Both
forms of blocks give the same trees (inputs of custom-block calls keyed by the argument names
their definition gives them), so the golden solution and the live workspace compare directly.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from scratch_gym.program import catalogue
from scratch_gym.program.sb3blocks import LIST, VAR

PROCEDURE_OPCODES = ("procedures_definition", "procedures_call")
ARGUMENTS = ("argument_reporter_string_number", "argument_reporter_boolean")
GETTERS = {"data_variable": ("VARIABLE", "variable"), "data_listcontents": ("LIST", "list")}


@dataclass
class BlockTree:
    """One block; ``key`` says what only a new block can change (opcode, proccode, names)."""

    id: str
    opcode: str
    key: tuple[Any, ...]
    options: dict[str, Any] = field(default_factory=dict)
    fields: dict[str, str] = field(default_factory=dict)
    literals: dict[str, str] = field(default_factory=dict)
    reporters: dict[str, BlockTree] = field(default_factory=dict)
    stacks: dict[str, list[BlockTree]] = field(default_factory=dict)

    def canon(self) -> tuple[Any, ...]:
        """Everything that matters for behaviour (not ids, nor literals under reporters)."""
        lits = {k: v for k, v in self.literals.items() if k not in self.reporters}
        return (
            self.key,
            tuple(sorted(self.fields.items())),
            tuple(sorted(lits.items())),
            tuple(sorted((k, r.canon()) for k, r in self.reporters.items())),
            tuple(sorted((k, tuple(n.canon() for n in s)) for k, s in self.stacks.items() if s)),
        )

    def size(self) -> int:
        inner = sum(r.size() for r in self.reporters.values())
        return 1 + inner + sum(n.size() for s in self.stacks.values() for n in s)


def script_canon(script: list[BlockTree]) -> tuple[Any, ...]:
    return tuple(n.canon() for n in script)


class TreeReader:
    """Reads the scripts of one target's blocks (``vm`` form: the VM's in-memory blocks)."""

    def __init__(self, blocks: dict[str, Any], vm: bool) -> None:
        self.blocks = blocks
        self.vm = vm
        self.protos: dict[str, dict[str, Any]] = {}
        for b in blocks.values():
            if isinstance(b, dict) and b.get("opcode") == "procedures_prototype":
                m = b.get("mutation") or {}
                self.protos[m.get("proccode", "")] = m

    def scripts(self) -> list[list[BlockTree]]:
        """Top-level stacks (loose reporters too), top to bottom."""
        tops = []
        for bid, b in self.blocks.items():
            if isinstance(b, dict) and b.get("topLevel") and not b.get("shadow"):
                tops.append((b.get("y") or 0, b.get("x") or 0, bid))
        return [self.stack(bid) for _, _, bid in sorted(tops)]

    def stack(self, bid: str | None) -> list[BlockTree]:
        out = []
        while bid:
            out.append(self.node(bid))
            bid = self.blocks[bid].get("next")
        return out

    # -- one block --------------------------------------------------------------------------------
    def _field(self, b: dict[str, Any], name: str) -> str:
        f = (b.get("fields") or {}).get(name)
        if f is None:
            return ""
        return str(f.get("value") if self.vm else f[0])

    def node(self, bid: str) -> BlockTree:
        b = self.blocks[bid]
        op = b["opcode"]
        spec = catalogue.get(op)
        m = b.get("mutation") or {}
        if op == "procedures_definition":
            proto = self._prototype(b)
            names = json.loads(proto.get("argumentnames") or "[]")
            warp = str(proto.get("warp", "false")).lower() == "true"
            code = proto.get("proccode", "")
            n = BlockTree(bid, op, (op, code, tuple(names), warp))
            n.options = {"proccode": code, "argument_names": names, "warp": warp}
        elif op == "procedures_call":
            code = m.get("proccode", "")
            n = BlockTree(bid, op, (op, code), {"proccode": code})
        elif op in ARGUMENTS:
            name = self._field(b, "VALUE")
            n = BlockTree(bid, op, (op, name), {"argument": name})
        elif op in GETTERS:
            fname, option = GETTERS[op]
            name = self._field(b, fname)
            n = BlockTree(bid, op, (op, name), {option: name})
        else:
            n = BlockTree(bid, op, (op,))
            for arg in spec.args if spec else ():
                if arg.kind == "variable" and arg.field in (b.get("fields") or {}):
                    option = {"": "variable", "list": "list"}.get(
                        arg.variable_type or "", "message"
                    )
                    n.options[option] = self._field(b, arg.field)
            for name in b.get("fields") or {}:
                n.fields[name] = self._field(b, name)
        statements = set(spec.statements) if spec else set()
        names = self._call_names(b) if op == "procedures_call" else {}
        for name in b.get("inputs") or {}:
            if op == "procedures_definition":
                continue
            if name in statements:
                n.stacks[name] = self.stack(self._input_block(b, name))
                continue
            shown = names.get(name, name)
            reporter, literal = self._input(b, name)
            if literal is not None:
                n.literals[shown] = literal
            if reporter is not None:
                n.reporters[shown] = reporter
        return n

    def _prototype(self, b: dict[str, Any]) -> dict[str, Any]:
        ref = self._input_block(b, "custom_block")
        proto = self.blocks.get(ref) if isinstance(ref, str) else None
        return (proto or {}).get("mutation") or {}

    def _call_names(self, b: dict[str, Any]) -> dict[str, str]:
        m = b.get("mutation") or {}
        proto = self.protos.get(m.get("proccode", ""), {})
        ids = json.loads(proto.get("argumentids") or "[]")
        return dict(zip(ids, json.loads(proto.get("argumentnames") or "[]"), strict=False))

    def _input_block(self, b: dict[str, Any], name: str) -> Any:
        inp = (b.get("inputs") or {}).get(name)
        if not inp:
            return None
        return inp.get("block") if self.vm else inp[1]

    def _shadow_value(self, ref: Any) -> str | None:
        if isinstance(ref, list):
            return str(ref[1])
        shadow = self.blocks.get(ref) if isinstance(ref, str) else None
        if not shadow:
            return None
        fields = shadow.get("fields") or {}
        if not fields:
            return None
        f = next(iter(fields.values()))
        return str(f.get("value") if self.vm else f[0])

    def _input(self, b: dict[str, Any], name: str) -> tuple[BlockTree | None, str | None]:
        """The reporter in an input (or None) and the literal of its shadow (or None)."""
        inp = b["inputs"][name]
        if self.vm:
            block, shadow = inp.get("block"), inp.get("shadow")
            literal = self._shadow_value(shadow)
            if block and block != shadow and not self.blocks[block].get("shadow"):
                return self.node(block), literal
            return None, literal
        kind, top = inp[0], inp[1]
        under = inp[2] if len(inp) > 2 else None
        if kind == 1:
            return None, self._shadow_value(top)
        literal = self._shadow_value(under)
        if isinstance(top, list):
            if top[0] in (VAR, LIST):
                op = "data_variable" if top[0] == VAR else "data_listcontents"
                option = GETTERS[op][1]
                return BlockTree("", op, (op, str(top[1])), {option: str(top[1])}), literal
            return None, str(top[1])
        if top is None:
            return None, literal
        if self.blocks[top].get("shadow"):
            return None, self._shadow_value(top)
        return self.node(top), literal


def same_scripts(a: list[list[BlockTree]], b: list[list[BlockTree]]) -> bool:
    """The same scripts, in any order and position."""
    return sorted(map(script_canon, a)) == sorted(map(script_canon, b))


def similarity(a: list[BlockTree], b: list[BlockTree]) -> int:
    """How many blocks of ``b`` an edit of ``a`` can keep."""
    return len(align_stacks(a, b, force_first=False))


def align_stacks(
    now: list[BlockTree], want: list[BlockTree], force_first: bool
) -> list[tuple[int, int]]:
    """Pairs (i, j) of a longest common subsequence of blocks with equal keys (the first blocks
    paired when ``force_first``); among equal lengths, exact copies are preferred."""
    if force_first and now and want and now[0].key == want[0].key:
        rest = align_stacks(now[1:], want[1:], False)
        return [(0, 0), *((i + 1, j + 1) for i, j in rest)]
    n, m = len(now), len(want)
    score = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            best = max(score[i + 1][j], score[i][j + 1])
            if now[i].key == want[j].key:
                bonus = 1 + 2 * (now[i].canon() == want[j].canon()) + want[j].size()
                best = max(best, score[i + 1][j + 1] + bonus)
            score[i][j] = best
    pairs, i, j = [], 0, 0
    while i < n and j < m:
        if now[i].key == want[j].key:
            bonus = 1 + 2 * (now[i].canon() == want[j].canon()) + want[j].size()
            if score[i][j] == score[i + 1][j + 1] + bonus:
                pairs.append((i, j))
                i, j = i + 1, j + 1
                continue
        if score[i + 1][j] >= score[i][j + 1]:
            i += 1
        else:
            j += 1
    return pairs


def pair_scripts(
    now: list[list[BlockTree]], want: list[list[BlockTree]]
) -> tuple[list[tuple[list[BlockTree], list[BlockTree] | None]], list[int]]:
    """Which live script each wanted script is edited from. Equal scripts are kept (left out of
    the result); the others are paired with the most similar live script that starts with the
    same block, or with None (built anew). Returns those pairs and the indices of the live
    scripts left over (to delete)."""
    pending = list(range(len(now)))
    todo: list[tuple[list[BlockTree], list[BlockTree] | None]] = []
    for script in want:  # keep equal scripts
        same = next((i for i in pending if same_scripts([now[i]], [script])), None)
        if same is not None:
            pending.remove(same)
        else:
            todo.append((script, None))
    for k, (script, _) in enumerate(todo):  # pair the others by their first block
        match = [i for i in pending if now[i] and now[i][0].key == script[0].key]
        if match:
            best = max(match, key=lambda i: similarity(now[i], script))
            pending.remove(best)
            todo[k] = (script, now[best])
    return todo, pending


def missing_data(
    golden: dict[str, Any], live: dict[str, Any], live_stage: dict[str, Any] | None = None
) -> list[tuple[str, str]]:
    """(add_variable | add_list, name) for the golden target's variables the live one lacks.

    A sprite also has the live stage's variables (``live_stage``): where the golden makes a
    sprite-local one with the name of an existing global, the editor refuses a second variable of
    that name, and the sprite's scripts use the global (they name variables, not ids)."""
    out = []
    shared = live_stage if live_stage is not None and live is not live_stage else {}
    for key, api in (("variables", "add_variable"), ("lists", "add_list")):
        have = {v[0] for v in (live.get(key) or {}).values()}
        have |= {v[0] for v in (shared.get(key) or {}).values()}
        for value in (golden.get(key) or {}).values():
            if value[0] not in have:
                out.append((api, value[0]))
    return out
