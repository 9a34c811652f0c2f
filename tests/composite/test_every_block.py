"""Every addable catalogue block can be added and connected somewhere, in the real editor.

The blocks are batched (several categories per reset) and driven through the action model
without the per-step observation, so that the whole catalogue takes seconds.
"""

from __future__ import annotations

import pytest

from scratch_gym.actions.composite import addable
from scratch_gym.program import catalogue
from tests.composite.driver import Driver

BATCHES = (
    ("motion", "looks"),
    ("sound", "events", "control"),
    ("sensing", "operators"),
    ("variables", "pen"),
)
ADDABLE = [s for s in catalogue if addable(s)]
MY_BLOCKS = "myblocks"  # need a definition first: tests/composite/test_my_blocks.py


def _caps(spec) -> bool:
    """Blocks with nothing below them: caps and forever."""
    return spec.shape == "cap" or spec.opcode == "control_forever"


def _connect_all(d: Driver, specs: list, text_host: tuple[str, str]) -> dict[str, str]:
    """Add and connect each block; return opcode -> problem for those that failed.

    Stack blocks go below a hat, hats and caps pair up, reporters go into ``text_host``'s text
    slot (opcode, input) and booleans into an if's condition.
    """
    problems: dict[str, str] = {}
    anchor = d.add("event_whenflagclicked")
    say = d.add(text_host[0], **({"variable": "v"} if text_host[0].startswith("data_") else {}))
    cond = d.add("control_if")
    d.connect(say, anchor, "stack_after")
    d.connect(cond, say, "stack_after")
    hats = [s for s in specs if s.shape == "hat"]
    caps = [s for s in specs if _caps(s)]
    stacks = [s for s in specs if s.is_statement and s.shape != "hat" and not _caps(s)]
    values = [s for s in specs if s.is_value]
    options = {"data_variable": {"variable": "v"}, "data_listcontents": {"list": "l"}}

    def check(opcode: str, block: str, parent: str, relation: str) -> None:
        b = d.vm_blocks()[block]
        linked = b["parent"] == parent if relation == "parent" else b["next"] == parent
        if not linked:
            problems[opcode] = f"not connected ({relation} {b['parent']}/{b['next']})"

    for hat in hats:
        partner = (
            caps.pop() if caps else stacks.pop() if stacks else catalogue.block("control_wait")
        )
        h = d.add(hat.opcode)
        p = d.add(partner.opcode, **options.get(partner.opcode, {}))
        d.connect(p, h, "stack_after")
        check(hat.opcode, h, p, "next")
        check(partner.opcode, p, h, "parent")
    for cap in caps:
        h = d.add("event_whenflagclicked")
        c = d.add(cap.opcode)
        d.connect(c, h, "stack_after")
        check(cap.opcode, c, h, "parent")
    for spec in stacks:
        b = d.add(spec.opcode, **options.get(spec.opcode, {}))
        d.connect(b, anchor, "stack_after")
        check(spec.opcode, b, anchor, "parent")
    for spec in values:
        b = d.add(spec.opcode, **options.get(spec.opcode, {}))
        host, slot = (cond, "CONDITION") if spec.shape == "boolean" else (say, text_host[1])
        d.connect(b, host, "value_into", slot)
        check(spec.opcode, b, host, "parent")
    return problems


@pytest.mark.parametrize("categories", BATCHES, ids=["+".join(b) for b in BATCHES])
def test_every_catalogue_block_adds_and_connects(composite_env, categories):
    composite_env.reset()
    d = Driver(composite_env, fast=True)
    d.step("add_variable", name="v")
    d.step("add_list", name="l")
    specs = [s for s in ADDABLE if s.category in categories]
    sprite = [s for s in specs if "sprite" in s.targets]
    problems = _connect_all(d, sprite, ("looks_say", "MESSAGE"))
    stage_only = [s for s in specs if "sprite" not in s.targets]
    if stage_only:
        d.step("select_stage")
        problems.update(_connect_all(d, stage_only, ("data_setvariableto", "VALUE")))
    assert problems == {}
    added = {
        b["opcode"]
        for t in ("Sprite1", "Stage")
        for b in d.page.call("vm.blocks", {"target": t}).values()
    }
    assert {s.opcode for s in specs} <= added


def test_batches_cover_the_catalogue():
    covered = {s.opcode for s in ADDABLE if any(s.category in b for b in BATCHES)}
    assert covered == {s.opcode for s in ADDABLE if s.category != MY_BLOCKS}
    assert len(ADDABLE) == len(catalogue) - 1  # all but a define block's prototype
