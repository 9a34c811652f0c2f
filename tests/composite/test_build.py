"""Whole programs built with composite actions only, checked in the VM, in the text and by running."""

from __future__ import annotations

import math
import re

from scratch_gym.program import render_scripts
from scratch_gym.program.numbering import number_blocks
from tests.composite.driver import Driver

LOOP_PROGRAM = """\
when @greenFlag clicked
repeat (10)
    move (10) steps
    turn right (15) degrees
end"""

BRANCH_PROGRAM = """\
when @greenFlag clicked
set [score v] to (0)
if <(x position) > (50)> then
    say [far]
else
    change [score v] by ((2) * (3))
    add (join [x=] (x position)) to [log v]
end"""


def strip_indices(text: str) -> str:
    """The numbered pseudocode without its index column and nested-reporter comments."""
    lines = text.split("\n")
    heads = (re.match(r"^( *\d+)  ", line) for line in lines)
    width = max((len(m.group(1)) for m in heads if m), default=0)
    out = []
    for line in lines:
        if line:
            line = re.sub(r"  // \d+: .*$", "", line[width + 2 :])
        out.append(line)
    return "\n".join(out)


def run_to_end(d: Driver) -> dict:
    """Click the green flag through the action, let the scripts finish, return Sprite1's state."""
    d.step("run_project")
    for _ in range(200):
        if d.page.summary()["running_threads"] == 0:
            break
        d.page.settle()
    else:
        raise AssertionError("the scripts did not finish")
    project = d.page.project_json()
    return next(t for t in project["targets"] if t["name"] == "Sprite1")


def check_text(d: Driver, expected: str) -> None:
    """The VM holds exactly ``expected``; the observation is its rendering plus indices."""
    blocks = d.vm_blocks()
    assert render_scripts(blocks) == expected
    d.step("stop_project")  # any valid step refreshes the observation
    assert d.obs["pseudocode"] == number_blocks(blocks).text()
    assert strip_indices(d.obs["pseudocode"]) == render_scripts(blocks)


def test_loop_program(driver: Driver):
    d = driver
    hat = d.add("event_whenflagclicked")
    loop = d.add("control_repeat")
    move = d.add("motion_movesteps")
    turn = d.add("motion_turnright")
    d.connect(loop, hat, "stack_after")
    d.connect(move, loop, "statement_into", "SUBSTACK")
    d.connect(turn, move, "stack_after")
    assert "put turn right (15) degrees below move (10) steps" in d.obs["last_action_result"]
    check_text(d, LOOP_PROGRAM)
    assert d.obs["pseudocode"].split("\n")[:3] == [
        "1  when @greenFlag clicked",
        "2  repeat (10)",
        "3      move (10) steps",
    ]
    sprite = run_to_end(d)
    x = y = 0.0
    direction = 90.0
    for _ in range(10):
        x += 10 * math.cos(math.radians(90 - direction))
        y += 10 * math.sin(math.radians(90 - direction))
        direction += 15
    assert math.isclose(sprite["x"], x, abs_tol=1e-6)
    assert math.isclose(sprite["y"], y, abs_tol=1e-6)
    assert math.isclose(sprite["direction"], direction - 360)


def test_branch_program_with_variable_list_and_nested_reporters(driver: Driver):
    d = driver
    d.step("add_variable", name="score", scope="all")
    d.step("add_list", name="log", scope="sprite")
    hat = d.add("event_whenflagclicked")
    init = d.add("data_setvariableto", variable="score")
    branch = d.add("control_if_else")
    d.connect(init, hat, "stack_after")
    d.connect(branch, init, "stack_after")
    gt = d.add("operator_gt")
    d.connect(gt, branch, "value_into", "CONDITION")
    xpos = d.add("motion_xposition")
    d.connect(xpos, gt, "value_into", "OPERAND1")
    say = d.add("looks_say")
    d.connect(say, branch, "statement_into")
    d.set(say, "MESSAGE", "far")
    change = d.add("data_changevariableby", variable="score")
    d.connect(change, branch, "statement_into", "SUBSTACK2")
    times = d.add("operator_multiply")
    d.connect(times, change, "value_into", "VALUE")
    d.set(times, "NUM1", 2)
    d.set(times, "NUM2", "3")
    add = d.add("data_addtolist", list="log")
    d.connect(add, change, "stack_after")
    join = d.add("operator_join")
    d.connect(join, add, "value_into", "ITEM")
    d.set(join, "STRING1", "x=")
    xpos2 = d.add("motion_xposition")
    d.connect(xpos2, join, "value_into", "STRING2")
    check_text(d, BRANCH_PROGRAM)
    variables = d.obs["variables"].split("\n")
    assert "score: variable for all sprites = 0" in variables
    assert "log: list for this sprite only = []" in variables
    # Depth-first numbering: the if's condition and its x position come before the say.
    assert d.obs["pseudocode"].split("\n")[2] == (
        " 3  if <(x position) > (50)> then  // 4: <(x position) > (50)>, 5: (x position)"
    )
    sprite = run_to_end(d)
    stage = next(t for t in d.page.project_json()["targets"] if t["isStage"])
    assert [v[1] for v in stage["variables"].values() if v[0] == "score"] == [6]
    assert [v[1] for v in sprite["lists"].values() if v[0] == "log"] == [["x=0"]]


def test_wrap_detach_delete_and_stack_before(driver: Driver):
    d = driver
    move = d.add("motion_movesteps")
    turn = d.add("motion_turnright")
    d.connect(turn, move, "stack_after")
    forever = d.add("control_forever")
    d.connect(forever, move, "wrap")
    hat = d.add("event_whenflagclicked")
    d.connect(hat, forever, "stack_before")
    blocks = d.vm_blocks()
    assert render_scripts(blocks) == (
        "when @greenFlag clicked\nforever\n    move (10) steps\n    turn right (15) degrees\nend"
    )
    assert blocks[forever]["parent"] == hat and blocks[move]["parent"] == forever
    result = d.step("detach_blocks", index=d.index(turn))
    assert result.startswith("detached block 4 (turn right (15) degrees)")
    assert d.vm_blocks()[turn]["topLevel"]
    result = d.step("delete_block", index=d.index(forever))
    assert result == "deleted block 2 (forever) with the 1 block(s) inside it"
    left = {b["opcode"] for b in d.vm_blocks().values() if not b["shadow"]}
    assert left == {"event_whenflagclicked", "motion_turnright"}


def test_select_sprite_and_stage(driver: Driver):
    d = driver
    d.step("select_stage")
    assert d.obs["target"] == "Stage (stage)"
    d.add("looks_switchbackdroptoandwait")
    assert d.page.summary()["editing_target"] == "Stage"
    d.step("select_sprite", name="Sprite1")
    assert d.obs["target"] == "Sprite1 (sprite)"
    assert d.obs["pseudocode"] == ""
    assert "Sprite1 (sprite, selected)" in d.obs["targets"]


def test_new_block_gets_its_own_shadow_after_a_reporter_covered_one(driver: Driver):
    """Blocks made from the flyout's state must not reuse a covered shadow's id (the VM keeps
    covered shadows: two blocks would share one and a value set on one would move to the other)."""
    d = driver
    hat = d.add("event_whenflagclicked")
    first = d.add("motion_pointindirection")
    d.connect(first, hat, "stack_after")
    d.connect(d.add("operator_subtract"), first, "value_into", "DIRECTION")
    second = d.add("motion_pointindirection")
    d.set(second, "DIRECTION", -150)
    d.connect(second, first, "stack_after")
    blocks = d.vm_blocks()
    shadows = [blocks[b]["inputs"]["DIRECTION"]["shadow"] for b in (first, second)]
    assert shadows[0] != shadows[1]
    assert render_scripts(d.page.project_json()["targets"][1]["blocks"]).endswith(
        "point in direction (-150)"
    )


def test_new_and_detached_blocks_do_not_move_other_scripts(driver: Driver):
    """A block is made at the origin, then placed in free space: the editor's bump after its first
    render must not push the script near the origin away (a random move that reorders scripts)."""
    d = driver

    def top_positions() -> dict[str, tuple[float, float]]:
        return {i: (b["x"], b["y"]) for i, b in d.vm_blocks().items() if b["topLevel"]}

    first = d.add("motion_movesteps")
    spot = top_positions()[first]
    made = [first]
    for opcode in ("motion_turnright", "looks_sayforsecs", "motion_goto"):
        made.append(d.add(opcode))
        assert top_positions()[first] == spot, opcode
    d.connect(made[1], first, "stack_after")
    d.connect(made[2], made[1], "stack_after")
    d.step("detach_blocks", index=d.index(made[2]))
    after = top_positions()
    assert after[first] == spot and set(after) == {first, made[2], made[3]}
