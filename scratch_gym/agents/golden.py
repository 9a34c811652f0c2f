"""What a task's golden solution adds to its starting project, as scripts to build.

The plan covers goldens that equal the start plus new stacks of blocks, or blocks appended under
an existing script, where every input is a literal, a menu choice or a field (no reporters in
slots, nothing inside C-blocks). Other tasks raise :class:`Unsupported`.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from scratch_gym.editor.projects import empty_project


class Unsupported(ValueError):
    """The golden solution is not a plain extension of the start that the plan can build."""


@dataclass(frozen=True)
class Value:
    """The value one argument (catalogue order) must get: literal text or a menu/field value."""

    arg: str
    field: str
    kind: str
    value: str


@dataclass(frozen=True)
class BlockPlan:
    opcode: str
    values: tuple[Value, ...]


@dataclass
class ScriptPlan:
    """Blocks to build as one stack; ``attach_to`` is an existing block id to append under."""

    blocks: list[BlockPlan]
    attach_to: str | None = None


@dataclass
class TargetPlan:
    name: str
    scripts: list[ScriptPlan] = field(default_factory=list)


def project_json(data: dict | bytes | None) -> dict[str, Any]:
    """project.json of project data (a dict, or .sb3 bytes); the empty project for None."""
    if data is None:
        return empty_project()
    if isinstance(data, bytes):
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            return json.loads(zf.read("project.json"))
    return data


def plan_task(task: Any) -> list[TargetPlan]:
    """The plan that turns ``task``'s start into its golden (raises Unsupported)."""
    from scratch_gym.tasks.projects import load_project

    if task.golden is None:
        raise Unsupported(f"task {task.id} has no golden solution")
    start = project_json(load_project(task.start) if task.start is not None else None)
    golden = project_json(load_project(task.golden))
    return plan_projects(start, golden)


def plan_projects(start: dict[str, Any], golden: dict[str, Any]) -> list[TargetPlan]:
    before = {t["name"]: t for t in start["targets"]}
    plans = []
    for target in golden["targets"]:
        old = before.get(target["name"])
        if old is None:
            raise Unsupported(f"the golden adds the target {target['name']!r}")
        plan = _plan_target(target["name"], old["blocks"], target["blocks"])
        if plan.scripts:
            if target.get("isStage"):
                raise Unsupported("the golden changes the stage's scripts")
            plans.append(plan)
    return plans


def _plan_target(name: str, old: dict, new: dict) -> TargetPlan:
    old_scripts = {tid: _script(old, tid) for tid in _tops(old)}
    new_scripts = [_script(new, tid) for tid in _tops(new)]
    unmatched = Counter(_key(s) for s in old_scripts.values())
    plan = TargetPlan(name)
    pending = []
    for script in new_scripts:
        if unmatched[_key(script)] > 0:
            unmatched[_key(script)] -= 1
        else:
            pending.append(script)
    leftovers = {tid: s for tid, s in old_scripts.items() if unmatched[_key(s)] > 0}
    for script in pending:
        base = _prefix_of(script, leftovers, unmatched)
        if base is None:
            plan.scripts.append(ScriptPlan([b for _, b in script]))
        else:
            tid, n = base
            plan.scripts.append(
                ScriptPlan([b for _, b in script[n:]], attach_to=old_scripts[tid][-1][0])
            )
    if sum(unmatched.values()):
        raise Unsupported(f"the golden removes or changes scripts of {name!r}")
    return plan


def _prefix_of(script, leftovers, unmatched) -> tuple[str, int] | None:
    for tid, old in leftovers.items():
        n = len(old)
        if unmatched[_key(old)] > 0 and n < len(script) and _key(script[:n]) == _key(old):
            unmatched[_key(old)] -= 1
            return tid, n
    return None


def _tops(blocks: dict) -> list[str]:
    tops = [
        bid
        for bid, b in blocks.items()
        if isinstance(b, dict) and b.get("topLevel") and not b.get("shadow")
    ]
    return sorted(tops, key=lambda bid: (blocks[bid].get("y", 0), blocks[bid].get("x", 0)))


def _script(blocks: dict, top: str) -> list[tuple[str, BlockPlan]]:
    out = []
    bid: str | None = top
    while bid:
        out.append((bid, _block(blocks, bid)))
        bid = blocks[bid].get("next")
    return out


def _key(script: list[tuple[str, BlockPlan]]) -> tuple[BlockPlan, ...]:
    return tuple(b for _, b in script)


def _block(blocks: dict, bid: str) -> BlockPlan:
    from scratch_gym.program import catalogue

    block = blocks[bid]
    spec = catalogue.get(block["opcode"])
    if spec is None or spec.extra.get("structural") or block["opcode"].startswith("procedures_"):
        raise Unsupported(f"block {block['opcode']!r} is not a plain catalogue block")
    if spec.statements:
        raise Unsupported(f"C-block {block['opcode']!r} (nested stacks are not planned)")
    values = []
    for arg in spec.args:
        values.append(Value(arg.name, arg.field or arg.name, arg.kind, _value(blocks, block, arg)))
    return BlockPlan(block["opcode"], tuple(values))


def _value(blocks: dict, block: dict, arg: Any) -> str:
    if arg.shadow is None:
        entry = (block.get("fields") or {}).get(arg.name) or (block.get("fields") or {}).get(
            arg.field
        )
        if not entry:
            raise Unsupported(f"{block['opcode']}: field {arg.name} missing")
        return str(entry[0])
    entry = (block.get("inputs") or {}).get(arg.name)
    if not entry:
        raise Unsupported(f"{block['opcode']}: input {arg.name} missing")
    kind, ref = entry[0], entry[1]
    if kind != 1:
        raise Unsupported(f"{block['opcode']}: input {arg.name} holds a reporter")
    if isinstance(ref, list):  # compressed primitive [type, value, ...]
        return str(ref[1])
    shadow = blocks.get(ref) or {}
    fields = shadow.get("fields") or {}
    if arg.field in fields:
        return str(fields[arg.field][0])
    raise Unsupported(f"{block['opcode']}: input {arg.name} has no value")
