"""The evaluation stage behaves as the editor's: the same program, driven by the same mouse in the
editor (real mouse events on its stage) and in the evaluation VM (the test API), senses the same
values for touching mouse-pointer, mouse x/y, mouse down, sprite clicks, touching edge, if on edge
bounce, touching color and color touching color."""

from __future__ import annotations

import time
from typing import Any

from scratch_gym.editor.page import EditorPage
from scratch_gym.program import ProjectBuilder
from scratch_gym.program.assets import circle_costume, rect_costume
from scratch_gym.tasks import Evaluator
from tests.tasks.conftest import code_task

SENSORS = """
when @greenFlag clicked
forever
    set [touch_mouse v] to <touching (mouse-pointer v)?>
    set [mx v] to (mouse x)
    set [my v] to (mouse y)
    set [down v] to <mouse down?>
end

when this sprite clicked
change [clicks v] by (1)

when I receive [geometry v]
go to x: (0) y: (0)
set [edge_centre v] to <touching (edge v)?>
go to x: (235) y: (0)
set [edge_near v] to <touching (edge v)?>
point in direction (90)
go to x: (200) y: (40)
move (30) steps
if on edge, bounce
set [bounce_x v] to (x position)
set [bounce_dir v] to (direction)
go to x: (150) y: (0)
set [red_on v] to <touching color [#ff0000]?>
set [blue_red_on v] to <color [#4c97ff] is touching [#ff0000]?>
go to x: (-150) y: (0)
set [red_off v] to <touching color [#ff0000]?>
set [blue_red_off v] to <color [#4c97ff] is touching [#ff0000]?>
set [geometry_done v] to [yes]
"""

MOUSE_VARS = ("touch_mouse", "mx", "my", "down", "clicks")
GEOMETRY_VARS = (
    "edge_centre",
    "edge_near",
    "bounce_x",
    "bounce_dir",
    "red_on",
    "blue_red_on",
    "red_off",
    "blue_red_off",
)
# Mouse positions (stage coordinates): far from the player, then on it.
AWAY = (-200, 150)
ON = (6, -4)


def project() -> bytes:
    builder = ProjectBuilder(default_sprite=False)
    builder.sprite("Wall", costumes=[rect_costume("red", 60, 60, fill="#ff0000")], x=150, y=0)
    builder.sprite(
        "Player",
        costumes=[circle_costume("blue", 20, fill="#4c97ff")],
        scripts=SENSORS,
        x=0,
        y=0,
        variables={v: 0 for v in (*MOUSE_VARS, *GEOMETRY_VARS, "geometry_done")},
    )
    return builder.broadcast("geometry").sb3_bytes()


def player_vars(page: EditorPage) -> dict[str, Any]:
    data = page.project_json()
    player = next(t for t in data["targets"] if t["name"] == "Player")
    return {name: value for name, value in player["variables"].values()}


def wait_for(page: EditorPage, check, timeout_s: float = 5.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while True:
        seen = player_vars(page)
        if check(seen) or time.monotonic() > deadline:
            return seen
        time.sleep(0.05)


def in_editor(page: EditorPage) -> list[dict[str, Any]]:
    """The program in the editor's VM, the real mouse moved and pressed over the editor's stage."""
    page.load_project(project())
    page.settle()
    left, top, width, height = page.page.evaluate(
        "() => { const r = ScratchGym.vm.renderer.canvas.getBoundingClientRect();"
        " return [r.left, r.top, r.width, r.height]; }"
    )

    def to_page(x: float, y: float) -> tuple[float, float]:
        return left + (x + 240) * width / 480, top + (180 - y) * height / 360

    page.start_vm()
    page.page.evaluate("() => ScratchGym.vm.greenFlag()")
    readings = []
    page.mouse_move(*to_page(*AWAY))
    readings.append(wait_for(page, lambda v: v["mx"] == AWAY[0] and v["my"] == AWAY[1]))
    page.mouse_move(*to_page(*ON))
    readings.append(wait_for(page, lambda v: v["mx"] == ON[0] and v["touch_mouse"] is True))
    page.mouse_down()
    readings.append(wait_for(page, lambda v: v["down"] is True and v["clicks"] == 1))
    page.mouse_up()
    readings.append(wait_for(page, lambda v: v["down"] is False))
    page.page.evaluate(
        "() => ScratchGym.vm.runtime.startHats('event_whenbroadcastreceived',"
        " {BROADCAST_OPTION: 'geometry'})"
    )
    readings.append(wait_for(page, lambda v: v["geometry_done"] == "yes"))
    page.page.evaluate("() => { ScratchGym.vm.stopAll(); ScratchGym.vm.quit(); }")
    return readings


def in_evaluation(page: EditorPage) -> list[dict[str, Any]]:
    """The same program and the same mouse in the evaluation VM, through the test API."""
    readings: list[dict[str, Any]] = []

    def read(run) -> dict[str, Any]:
        return {v: run.var(v, sprite="Player") for v in (*MOUSE_VARS, *GEOMETRY_VARS)}

    def test_same_program(run):
        run.green_flag().mouse_move(*AWAY).frames(3)
        readings.append(read(run))
        run.mouse_move(*ON).frames(3)
        readings.append(read(run))
        run.mouse_down().frames(3)
        readings.append(read(run))
        run.mouse_up().frames(3)
        readings.append(read(run))
        run.broadcast("geometry").frames(3)
        readings.append(read(run))

    result = Evaluator(page, code_task(test_same_program, wall_s=20)).evaluate(project())
    assert result.success, result.to_info()
    return readings


def test_mouse_edges_and_colours_sense_as_in_the_editor(page):
    editor = in_editor(page)
    evaluation = in_evaluation(page)
    away, on, pressed, released, geometry = evaluation
    # what the program must sense (so that agreeing on a broken value cannot pass)
    assert (away["touch_mouse"], away["mx"], away["my"]) == (False, *AWAY), away
    assert (on["touch_mouse"], on["mx"], on["my"], on["down"]) == (True, *ON, False), on
    assert (pressed["down"], pressed["clicks"]) == (True, 1), pressed
    assert (released["down"], released["clicks"]) == (False, 1), released
    assert (geometry["edge_centre"], geometry["edge_near"]) == (False, True), geometry
    assert geometry["bounce_dir"] == -90 and geometry["bounce_x"] < 230, geometry
    assert (geometry["red_on"], geometry["blue_red_on"]) == (True, True), geometry
    assert (geometry["red_off"], geometry["blue_red_off"]) == (False, False), geometry
    # and the editor senses exactly the same at each step
    for step, (mine, theirs) in enumerate(zip(evaluation, editor, strict=True)):
        names = MOUSE_VARS if step < 4 else GEOMETRY_VARS
        assert {n: mine[n] for n in names} == {n: theirs[n] for n in names}, step
