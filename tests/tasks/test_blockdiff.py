"""Changed blocks between start and golden, and Scratch-like block deletion. No browser."""

from __future__ import annotations

from scratch_gym.program import ProjectBuilder
from scratch_gym.tasks.blockdiff import changed_units, remove_unit, units

START = """
when @greenFlag clicked
set [n v] to (0)
repeat (5)
    change [n v] by (1)
end
say (n)
"""
GOLDEN = """
when @greenFlag clicked
set [n v] to (0)
repeat (10)
    change [n v] by (2)
    move (10) steps
end
say (n)
"""


def build(scripts: str) -> dict:
    return ProjectBuilder().sprite("Sprite1", scripts=scripts).build()


def blocks(project: dict) -> dict:
    return project["targets"][1]["blocks"]


def test_changed_units_are_the_edited_and_added_blocks():
    changed = changed_units(build(START), build(GOLDEN))
    assert sorted(u.opcode for u in changed) == [
        "control_repeat",
        "data_changevariableby",
        "motion_movesteps",
    ]
    assert changed_units(build(GOLDEN), build(GOLDEN)) == []


def test_compact_variable_reporters_are_units():
    ops = [u.opcode for u, _sig in units(build(START))]
    assert "data_variable" in ops  # the (n) in say (n)


def test_delete_a_c_block_takes_its_inside_and_heals_the_stack():
    golden = build(GOLDEN)
    repeat = next(u for u in changed_units(build(START), golden) if u.opcode == "control_repeat")
    out = blocks(remove_unit(golden, repeat))
    ops = sorted(b["opcode"] for b in out.values() if isinstance(b, dict) and not b.get("shadow"))
    assert ops == ["data_setvariableto", "event_whenflagclicked", "looks_say"]
    setter = next(i for i, b in out.items() if b["opcode"] == "data_setvariableto")
    say = next(i for i, b in out.items() if b["opcode"] == "looks_say")
    assert out[setter]["next"] == say and out[say]["parent"] == setter
    assert all(b.get("parent") in out or b.get("parent") is None for b in out.values())


def test_delete_first_block_of_a_substack_and_a_reporter():
    golden = build(GOLDEN)
    change = next(
        u for u in changed_units(build(START), golden) if u.opcode == "data_changevariableby"
    )
    out = blocks(remove_unit(golden, change))
    repeat = next(i for i, b in out.items() if b["opcode"] == "control_repeat")
    first = out[out[repeat]["inputs"]["SUBSTACK"][1]]
    assert first["opcode"] == "motion_movesteps" and first["parent"] == repeat
    var = next(u for u, _s in units(golden) if u.opcode == "data_variable")
    out = blocks(remove_unit(golden, var))
    say = next(b for b in out.values() if b["opcode"] == "looks_say")
    assert say["inputs"]["MESSAGE"][0] == 1  # back to the literal shadow


def test_delete_a_hat_leaves_its_stack_unattached():
    golden = build(GOLDEN)
    hat = next(u for u, _s in units(golden) if u.opcode == "event_whenflagclicked")
    out = blocks(remove_unit(golden, hat))
    setter = next(b for b in out.values() if b["opcode"] == "data_setvariableto")
    assert setter["topLevel"] and setter["parent"] is None


def test_neutral_entries_cover_matching_blocks_only():
    from scratch_gym.tasks.adversarial import neutral_for
    from scratch_gym.tasks.blockdiff import Unit
    from scratch_gym.tasks.schema import NeutralBlock, Task

    a = Unit("Sprite1", "b1", "looks_show")
    b = Unit("Sprite1", "b2", "looks_show")
    c = Unit("Cat", "b3", "looks_show")
    units = [a, b, c]
    task = Task(
        "t", "create", "i", None, None, neutral=(NeutralBlock("looks_show", "shown", "Sprite1", 1),)
    )
    assert [neutral_for(task, u, units) is not None for u in units] == [False, True, False]
    anywhere = Task("t", "create", "i", None, None, neutral=(NeutralBlock("looks_show", "shown"),))
    assert all(neutral_for(anywhere, u, units) for u in units)
