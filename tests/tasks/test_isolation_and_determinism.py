"""Evaluation never changes what the agent sees, and repeats exactly, also under CPU load."""

from __future__ import annotations

import subprocess
import sys

from scratch_gym.tasks import Evaluator, Said, Sprite, load_task
from scratch_gym.tasks.projects import load_project
from tests.tasks.conftest import code_task, sprite_project

BUSY = """
when @greenFlag clicked
go to x: (0) y: (0)
repeat (40)
    move (5) steps
    turn right (pick random (1) to (30)) degrees
    if on edge, bounce
end
say (join [x=] (round (x position)))

when this sprite clicked
change size by (10)
"""


def _tests():
    def test_walk(run):
        run.green_flag()
        run.wait_until(Said("Sprite1").includes_text("x="), frames=120)
        run.expect(Sprite("Sprite1").x != 0)

    def test_clicks_and_keys(run):
        run.press("space").click("Sprite1").frames(10)
        run.expect(Sprite("Sprite1").size.approx(110, 0.01), "a click grows the sprite")
        run.expect(Sprite("Sprite1").x == 1, "deliberately failing: messages must repeat too")

    return code_task(test_walk, test_clicks_and_keys)


def test_agent_project_and_view_are_identical_after_evaluation(page):
    page.load_project(sprite_project(BUSY, x=12, y=-7))
    page.settle()
    page.call("view.set", {"scroll_x": -35, "scroll_y": 20})
    before = (page.project_json(), page.call("view.state"), page.summary())
    blocks_before = page.call("vm.blocks", {"target": "Sprite1"})
    result = Evaluator(page, _tests()).evaluate()
    assert result.tests[0].passed and "deliberately" in result.tests[1].message, result.to_info()
    after = (page.project_json(), page.call("view.state"), page.summary())
    assert after == before
    assert page.call("vm.blocks", {"target": "Sprite1"}) == blocks_before


def test_same_project_twice_gives_identical_results_also_under_load(page):
    project = sprite_project(BUSY)
    first = Evaluator(page, _tests()).evaluate(project)
    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        second = Evaluator(page, _tests()).evaluate(project)
    finally:
        hog.kill()
        hog.wait()
    assert first.fingerprint == second.fingerprint and not second.cached
    assert first.signature() == second.signature()
    assert [t.frames for t in first.tests] == [t.frames for t in second.tests]


def test_positions_are_identical_frame_by_frame(page):
    project = sprite_project(BUSY)
    traces = []

    def test_trace(run):
        trace = []
        run.green_flag()
        for _ in range(40):
            run.frames(1)
            s = run.sprite("Sprite1")
            trace.append((s.x, s.y, s.direction))
        traces.append(trace)

    for _ in range(2):
        assert Evaluator(page, code_task(test_trace)).evaluate(project).success
    assert traces[0] == traces[1] and len(set(traces[0])) > 30


def test_unchanged_project_is_evaluated_once(page):
    task = load_task("say-hello")
    ev = Evaluator(page, task)
    page.load_project(load_project(task.golden))
    page.settle()
    first = ev.evaluate()
    again = ev.evaluate()
    assert again.cached and again.signature() == first.signature() and ev.evaluations == 1
    page.load_project(load_project(task.start))
    page.settle()
    changed = ev.evaluate()
    assert not changed.cached and changed.psr < first.psr == 1.0


def test_touching_edge_stops_where_the_editor_stops(page):
    project = sprite_project(
        "when @greenFlag clicked\nrepeat until <touching (edge v)?>\n    change x by (10)\nend"
    )
    stops = []

    def test_edge(run):
        run.green_flag()
        run.wait_until(Sprite("Sprite1").x > 0, frames=5)
        stops.append(run.wait_until(Sprite("Sprite1").x >= 200, frames=60))
        run.frames(5)
        assert run.sprite("Sprite1").x == 200, run.sprite("Sprite1").x
        assert run.touching("Sprite1", "edge")

    result = Evaluator(page, code_task(test_edge)).evaluate(project)
    assert result.success, result.to_info()


def test_editor_extensions_still_register_with_the_editor(page):
    """The second VM must not take over the page's extension service (central dispatch)."""
    Evaluator(page, _tests()).evaluate(sprite_project(BUSY))
    pen = sprite_project("when @greenFlag clicked\npen down\nmove (10) steps")
    page.load_project(pen)
    page.settle()
    loaded = page.page.evaluate("() => ScratchGym.vm.extensionManager.isExtensionLoaded('pen')")
    assert loaded
    result = Evaluator(page, _tests()).evaluate()
    assert result.fingerprint


MUTATE = """
when @greenFlag clicked
go to x: (100) y: (50)
turn right (45) degrees
change size by (30)
switch costume to (costume2 v)
change [color v] effect by (50)
set drag mode [draggable v]
set rotation style [left-right v]
set volume to (20) %
change [n v] by (5)
add [x] to [items v]
delete (1) of [items v]
create clone of (myself v)
go [backward v] (1) layers
switch backdrop to (night v)
ask [q?] and wait
say [hi]
hide

when [a v] key pressed
say (answer)
"""


def test_each_test_starts_from_the_same_state(page):
    """Tests after one that changed everything start exactly like the first (reset in place)."""
    from scratch_gym.program import ProjectBuilder
    from scratch_gym.program.assets import backdrop, circle_costume

    project = (
        ProjectBuilder()
        .sprite("Sprite1", scripts=MUTATE, x=-30, y=20)
        .sprite("Other", costumes=[circle_costume("dot")], x=40)
        .stage(backdrops=[backdrop("day", "#ffffff"), backdrop("night", "#000033")])
        .variable("n", 1)
        .list("items", ["a", "b"])
        .sb3_bytes()
    )
    starts = []

    def test_mutates(run):
        starts.append(run.snapshot.data)
        run.answer("yes").green_flag().frames(30)
        s = run.sprite("Sprite1")
        assert (s.x, s.visible, run.var("n"), len(s.clones), run.backdrop) == (
            100,
            False,
            6,
            1,
            "night",
        )

    def test_fresh(run):
        starts.append(run.snapshot.data)
        run.press("a").frames(2)
        assert run.sprite("Sprite1").bubble is None, "the answer of the last test leaked"

    result = Evaluator(page, code_task(test_mutates, test_fresh, test_fresh)).evaluate(project)
    assert result.success, result.to_info()
    assert starts[0] == starts[1] == starts[2]


def test_loading_projects_again_and_again_leaks_no_costume_skins(page):
    # scratch-vm keeps the skins of a replaced project; the bridge destroys them on every load.
    tasks = [load_task("pen-wall"), load_task("bee-garden")]
    counts = []
    for _ in range(3):
        for task in tasks:
            ev = Evaluator(page, task)
            ev.evaluate(load_project(task.golden), until_failure=True)
            page.load_project(load_project(task.start))
            counts.append(page.call("vm.skins", {}))
    assert counts[-2:] == counts[:2], counts
