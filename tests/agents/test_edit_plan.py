"""The oracles' one edit planner (no browser): the plan for a golden program, the same plan
whether custom blocks are defined first or not (the primitive oracle plans again once it has made
them), and both executors carrying out every kind of operation it emits."""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterable, Iterator
from typing import Any

import pytest

from scratch_gym.agents import edit_plan as ep
from scratch_gym.agents.composite_oracle import CompositeOracleAgent
from scratch_gym.agents.composite_plan import BlockTree, TreeReader, missing_data
from scratch_gym.agents.golden import project_json
from scratch_gym.agents.primitive_oracle.editing import ScriptEditor
from scratch_gym.tasks import load_task
from scratch_gym.tasks.projects import load_project
from scratch_gym.tasks.registry import list_tasks

Scripts = list[list[BlockTree]]


def target_plans(
    task_id: str,
) -> list[tuple[dict[str, Any], list[tuple[str, str]], Scripts, Scripts]]:
    """(golden target, its missing data, live scripts, golden scripts) of a task's start project."""
    task = load_task(task_id)
    golden = project_json(load_project(task.golden))
    start = project_json(load_project(task.start) if task.start else None)
    live = {t["name"]: t for t in start["targets"]}
    stage = next(t for t in live.values() if t.get("isStage"))
    return [
        (
            target,
            missing_data(target, live[target["name"]], stage),
            TreeReader(live[target["name"]].get("blocks") or {}, vm=False).scripts(),
            TreeReader(target.get("blocks") or {}, vm=False).scripts(),
        )
        for target in golden["targets"]
        if target["name"] in live
    ]


def test_the_plan_of_a_golden_program():
    (sprite,) = [p for p in target_plans("say-hello") if not p[0].get("isStage")]
    target, missing, now, want = sprite
    plan = ep.setup_ops(target, missing) + ep.script_ops(now, want)
    assert plan == [
        ep.SelectTarget("Sprite1", stage=False),
        ep.AddBlock("new1", "event_whenflagclicked"),
        ep.AddBlock(
            "new2",
            "looks_sayforsecs",
            below="new1",
            fill=(ep.SetInput("new2", "MESSAGE", "Hello!"), ep.SetInput("new2", "SECS", "2")),
        ),
        ep.AddBlock(
            "new3",
            "looks_thinkforsecs",
            below="new2",
            fill=(ep.SetInput("new3", "MESSAGE", "Hmm..."), ep.SetInput("new3", "SECS", "1")),
        ),
    ]


def walk(plan: Iterable[ep.EditOp]) -> Iterator[ep.EditOp]:
    """Every operation of a plan, new blocks' fills included."""
    for op in plan:
        yield op
        if isinstance(op, ep.AddBlock):
            yield from walk(op.fill)


def test_a_plan_edits_live_blocks_in_place_and_defines_custom_blocks_first():
    (_, _, now, want) = next(p for p in target_plans("power") if not p[0].get("isStage"))
    plan = list(walk(ep.script_ops(now, want)))
    live = {n.id for s in now for n in s}
    assert plan[0] == ep.DefineBlock("new1", "power %s %s", ("b", "e"), warp=False)
    assert any(isinstance(op, ep.AddBlock) and op.below in live for op in plan)
    call = next(op for op in plan if isinstance(op, ep.AddBlock) and op.opcode == "procedures_call")
    inputs = [op.input for op in plan if isinstance(op, ep.AddBlock) and op.parent == call.new]
    assert inputs == ["b", "e"]  # a call's inputs by argument name


def canonical(plan: list[ep.EditOp]) -> list[str]:
    """The plan's text with new blocks' handles numbered in order of first mention."""
    names: dict[str, str] = {}
    return [
        re.sub(r"'(new\d+)'", lambda m: names.setdefault(m.group(1), f"<{len(names)}>"), repr(op))
        for op in plan
    ]


@pytest.mark.parametrize("task_id", ["power", "is-prime", "thermostat-limits", "robot-replay"])
def test_defining_custom_blocks_first_leaves_the_rest_of_the_plan(task_id):
    """The composite oracle carries out one plan; the primitive oracle makes the plan's custom
    blocks first, then plans again from the live scripts: both get the same edits."""
    checked = 0
    for _, _, now, want in target_plans(task_id):
        plan = ep.script_ops(now, want)
        defined = {op.new: op for op in plan if isinstance(op, ep.DefineBlock)}
        if not defined:
            continue
        tops = {s[0].options.get("proccode"): s[0] for s in want}
        made = {handle: f"made-{handle}" for handle in defined}
        live_definitions = [
            [BlockTree(made[h], top.opcode, top.key, dict(top.options))]
            for h, top in ((h, tops[d.proccode]) for h, d in defined.items())
        ]
        again = ep.script_ops(now + live_definitions, want)
        rest = [ep.resolved(op, made) for op in plan if not isinstance(op, ep.DefineBlock)]
        assert canonical(again) == canonical(rest)
        checked += 1
    assert checked


def test_every_task_plans_only_known_operations():
    kinds = {
        type(op)
        for task in list_tasks()
        for target, missing, now, want in target_plans(task.id)
        for op in walk(ep.setup_ops(target, missing) + ep.script_ops(now, want))
    }
    assert kinds <= set(ep.OP_KINDS) and {ep.AddBlock, ep.DeleteBlock, ep.DefineBlock} <= kinds


@pytest.mark.parametrize(
    "executor", [CompositeOracleAgent._execute, ScriptEditor.execute], ids=["composite", "gestures"]
)
def test_both_executors_carry_out_every_kind_of_operation(executor):
    handled = set(re.findall(r"isinstance\(op, ep\.(\w+)\)", inspect.getsource(executor)))
    assert handled == {kind.__name__ for kind in ep.OP_KINDS}
