"""The test API says what authors mean, against the real editor: when things were said, clones
that keep their identity, conditions that must hold throughout a span, lists compared as lists,
undeclared variables that say where they live, and removal checks of only the golden's blocks."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from scratch_gym.program import ProjectBuilder
from scratch_gym.tasks import Evaluator, Sprite, TestFailure, Var
from scratch_gym.tasks.adversarial import check_task
from scratch_gym.tasks.blockdiff import changed_units
from scratch_gym.tasks.schema import Budget, ProjectRef, Task, TestSpec
from tests.tasks.conftest import code_task, sprite_project

COUNTDOWN = """
when @greenFlag clicked
say [Ready] for (2) seconds
wait (3) seconds
think [Go!]
"""


def test_said_entries_carry_frame_time_and_speaker(page):
    seen = {}

    def test_go_after_five_seconds(run):
        run.green_flag()
        run.seconds(6)
        seen["said"] = run.said("Sprite1")
        seen["sprite_said"] = run.sprite("Sprite1").said

    result = Evaluator(page, code_task(test_go_after_five_seconds)).evaluate(
        sprite_project(COUNTDOWN)
    )
    assert result.success, result.to_info()
    ready, go = seen["said"][:2]
    assert seen["said"][:2] == ["Ready", "Go!"]  # still compares as text
    assert (ready.frame, ready.kind, ready.sprite) == (1, "say", "Sprite1")  # the first frame
    assert (go.kind, go.sprite, go.clone_id) == ("think", "Sprite1", None)
    assert 5.0 <= go.time <= 5.1 and go.frame == round(go.time * 30), (go.frame, go.time)
    assert [s.frame for s in seen["sprite_said"][:2]] == [ready.frame, go.frame]


RAIN = """
when @greenFlag clicked
hide
go to x: (0) y: (150)
repeat (3)
create clone of (myself v)
wait (0.5) seconds
end

when I start as a clone
show
repeat until <(y position) < (-100)>
change y by (-10)
end
delete this clone
"""


def test_clones_keep_their_ids_for_the_whole_test(page):
    seen = {}

    def test_each_clone_falls(run):
        run.green_flag()
        run.frames(20)
        seen["first"] = [c.id for c in run.clones("Sprite1")]
        seen["y2_before"] = run.clone("Sprite1#2").y
        run.frames(15)  # the first clone reached the bottom and was deleted meanwhile
        seen["later"] = [c.id for c in run.clones("Sprite1")]
        seen["y2_after"] = run.clone("Sprite1#2").y
        seen["gone"] = run.clone("Sprite1#1")
        seen["original"] = run.sprite("Sprite1").id

    result = Evaluator(page, code_task(test_each_clone_falls)).evaluate(sprite_project(RAIN))
    assert result.success, result.to_info()
    assert seen["first"] == ["Sprite1#1", "Sprite1#2"]
    assert seen["later"] == ["Sprite1#2", "Sprite1#3"]  # list order shifted; ids did not
    assert seen["y2_after"] == seen["y2_before"] - 150  # the same clone, 15 frames further down
    assert seen["gone"] is None and seen["original"] == "Sprite1"


STEP_LATER = """
when @greenFlag clicked
go to x: (0) y: (0)
wait (1) seconds
change x by (50)
"""


def test_throughout_must_hold_on_every_frame_and_until_does_not(page):
    seen = {}

    def test_still_for_a_while(run):
        run.green_flag()
        seen["until"] = run.wait_until(Sprite("Sprite1").x == 0, frames=60)
        run.throughout(Sprite("Sprite1").x == 0, seconds=0.9)

    def test_still_for_two_seconds(run):
        run.green_flag()
        run.always(Sprite("Sprite1").x == 0, seconds=2, message="Sprite1 must stay put")

    declarative = TestSpec(
        "declarative_always",
        steps=(
            {"green_flag": True},
            {"throughout": {"sprite": "Sprite1", "prop": "x", "op": "<", "value": 1}, "frames": 45},
        ),
        budget=Budget(300, 10.0),
    )
    task = code_task(test_still_for_a_while, test_still_for_two_seconds)
    task = replace(task, tests=(*task.tests, declarative))
    result = Evaluator(page, task).evaluate(sprite_project(STEP_LATER))
    passed = {t.name: t for t in result.tests}
    assert seen["until"] == 0  # until returns at once: the condition already held
    assert passed["still_for_a_while"].passed, passed["still_for_a_while"].message
    two = passed["still_for_two_seconds"]
    assert not two.passed
    assert "Sprite1 must stay put" in two.message and "on every frame from 0 to 60" in two.message
    assert "at frame 3" in two.message and "(got 50)" in two.message, two.message
    assert not passed["declarative_always"].passed  # the next test ran and failed the same way
    assert "on every frame from 0 to 45" in passed["declarative_always"].message


def list_project() -> bytes:
    scripts = """
when @greenFlag clicked
delete all of [items v]
add [a] to [items v]
add [b] to [items v]
"""
    return ProjectBuilder().list("items").sprite("Sprite1", scripts=scripts).sb3_bytes()


@pytest.mark.parametrize(
    ("op", "value", "passes"),
    [
        ("==", ["a", "b"], True),
        ("==", "a,b", False),  # JavaScript's text of the list no longer passes by accident
        ("==", ["a", "b", "c"], False),
        ("==", ["b", "a"], False),
        ("!=", ["b", "a"], True),
        ("contains", "b", True),
    ],
)
def test_declarative_list_values_compare_as_lists(page, op, value, passes):
    case = TestSpec(
        "items",
        steps=(
            {"green_flag": True},
            {"frames": 2},
            {"expect": {"list": "items", "op": op, "value": value}},
        ),
        budget=Budget(60, 10.0),
    )
    task = Task("t", "create", "", None, None, (case,), reset_sprites=False)
    result = Evaluator(page, task).evaluate(list_project())
    assert result.success is passes, result.to_info()


def test_an_undeclared_variables_error_says_where_it_lives_and_how_to_read_it(page):
    # `score` is declared by nobody: the VM makes it a variable of Sprite1 only
    project = sprite_project("when @greenFlag clicked\nset [score v] to (5)")
    seen = {}

    def test_read_in_python(run):
        run.green_flag()
        run.frames(2)
        with pytest.raises(TestFailure) as info:
            run.var("score")
        seen["python"] = str(info.value)
        seen["value"] = run.var("score", sprite="Sprite1")

    def test_read_in_page(run):
        run.green_flag()
        run.frames(2)
        run.expect(Var("score") == 5)
        run.sync()

    result = Evaluator(page, code_task(test_read_in_python, test_read_in_page)).evaluate(project)
    python, page_side = result.tests
    assert python.passed, python.message
    assert "for this sprite only of Sprite1" in seen["python"]
    assert "run.var('score', sprite='Sprite1')" in seen["python"]
    assert str(seen["value"]) == "5"
    assert not page_side.passed
    assert 'run.var("score", sprite="Sprite1")' in page_side.message, page_side.message


TWO_HATS_START = "when @greenFlag clicked\nsay [Hi!]\n"
TWO_HATS_GOLDEN = TWO_HATS_START + "\nwhen @greenFlag clicked\nmove (10) steps\n"


def test_removal_check_removes_only_the_blocks_the_golden_added(page, tmp_path):
    start = ProjectBuilder().sprite("Sprite1", scripts=TWO_HATS_START).build()
    golden = ProjectBuilder().sprite("Sprite1", scripts=TWO_HATS_GOLDEN).build()
    changed = changed_units(start, golden)
    assert sorted(u.opcode for u in changed) == ["event_whenflagclicked", "motion_movesteps"]
    hat = next(u for u in changed if u.opcode == "event_whenflagclicked")
    moving_script = golden["targets"][1]["blocks"][hat.block_id]["next"]
    assert golden["targets"][1]["blocks"][moving_script]["opcode"] == "motion_movesteps"

    (tmp_path / "start.json").write_text(json.dumps(start))
    (tmp_path / "golden.json").write_text(json.dumps(golden))

    def test_moves(run):
        run.green_flag()
        run.frames(3)
        assert run.sprite("Sprite1").x == 10, run.sprite("Sprite1").x

    task = code_task(test_moves)
    task = replace(
        task, start=ProjectRef(tmp_path / "start.json"), golden=ProjectRef(tmp_path / "golden.json")
    )
    report = check_task(page, task)
    assert report.ok, report.problems()  # the test never looks at "Hi!": the start hat is kept
    removals = [c.label for c in report.checks if c.kind == "removal"]
    assert len(removals) == 2
