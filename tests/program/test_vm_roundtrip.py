"""Through the real VM: text -> blocks -> VM -> blocks read back -> text; built projects run."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from scratch_gym.editor.vmcheck import batch_project, load_batches, run_project
from scratch_gym.program import ProjectBuilder, Sound, parse_scripts, render_scripts
from scratch_gym.program.assets import backdrop, circle_costume
from scratch_gym.program.normalize import normalize_program


def _target(project: dict, name: str) -> dict:
    return next(t for t in project["targets"] if t["name"] == name)


def test_every_block_round_trips_through_the_vm(page, all_blocks_sprite, all_blocks_stage):
    project = (
        ProjectBuilder()
        .sprite("Sprite1", scripts=all_blocks_sprite)
        .sprite("Sprite2")
        .stage(scripts=all_blocks_stage)
        .build()
    )
    page.load_project(project)
    # the editor's workspace shows every (non-shadow) block the VM holds for Sprite1
    page.settle(timeout_ms=2000)
    shown = page.call("workspace.blockBoxes", {"flyout": False})
    held = page.call("vm.blocks", {"target": "Sprite1"}).values()
    assert {b["id"] for b in held if not b["shadow"]} <= {b["id"] for b in shown}
    back = page.project_json()
    for name, text in (("Sprite1", all_blocks_sprite), ("Stage", all_blocks_stage)):
        rendered = render_scripts(_target(back, name)["blocks"])
        assert normalize_program(rendered) == normalize_program(text), name
        live = render_scripts(page.call("vm.blocks", {"target": name}))
        assert live == rendered, name


def test_nl2scratch_rendering_round_trips_through_the_vm(page, all_blocks_sprite):
    corpus_text = render_scripts(parse_scripts(all_blocks_sprite).blocks, dialect="nl2scratch")
    parsed = parse_scripts(corpus_text, dialect="nl2scratch")
    result = load_batches(page, [batch_project({"P0": parsed})])[0]
    assert result.ok, result.error
    back = render_scripts(result.blocks["P0"], dialect="nl2scratch")
    assert normalize_program(back) == normalize_program(corpus_text)


def test_repeat_move_runs_to_x_70(page):
    project = ProjectBuilder().sprite(
        "Sprite1", scripts="when @greenFlag clicked\nrepeat (10)\n    move (7) steps\nend", x=0, y=0
    )
    state = run_project(page, project.build(), steps=15)
    assert state["Sprite1"]["x"] == pytest.approx(70)
    assert state["Sprite1"]["y"] == pytest.approx(0)


def test_custom_blocks_variables_and_lists_run(page):
    scripts = """when @greenFlag clicked
set [total v] to (0)
delete all of [seen v]
count to (4) <(1) = (1)>

define count to (n) <double>
repeat (n)
    change [total v] by (1)
    if <double> then
        change [total v] by (1)
    end
    add (total) to [seen v]
end
set y to (total)
"""
    project = ProjectBuilder().sprite("Sprite1", scripts=scripts, y=0).build()
    state = run_project(page, project, steps=20)
    sprite = state["Sprite1"]
    assert sprite["y"] == pytest.approx(8)
    assert sprite["variables"]["total"] == 8
    assert sprite["variables"]["seen"] == [2, 4, 6, 8]


def test_built_sb3_with_drawn_costumes_and_sounds_loads_and_runs(page, tmp_path):
    builder = (
        ProjectBuilder()
        .remove_sprite("Sprite1")
        .sprite(
            "Ball",
            costumes=[circle_costume("red", 15, "#ff0000"), circle_costume("blue", 15, "#0000ff")],
            sounds=[Sound.tone("beep", 880, 0.2)],
            x=-50,
            y=10,
            scripts="""when @greenFlag clicked
switch costume to (blue v)
start sound (beep v)
repeat (5)
    change x by (10)
    pen down
end
broadcast (done v)""",
        )
        .sprite("Cat", x=100, scripts="when I receive [done v]\nchange [hits v] by (1)")
        .stage(
            backdrops=[backdrop("sky", "#87ceeb")],
            scripts="when @greenFlag clicked\nset [hits v] to (0)",
        )
        .variable("hits", 0)
    )
    path = builder.save_sb3(tmp_path / "ball.sb3")
    data = path.read_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = set(zf.namelist())
        project = json.loads(zf.read("project.json"))
    ball = _target(project, "Ball")
    assert {c["md5ext"] for c in ball["costumes"]} | {ball["sounds"][0]["md5ext"]} <= names
    assert project["extensions"] == ["pen"]
    summary = page.load_project(data)
    assert summary["targets"] == ["Stage", "Ball", "Cat"]
    state = page.call("catalogue.run", {"steps": 12})
    assert state["Ball"]["x"] == pytest.approx(0)
    assert state["Ball"]["costume"] == "blue"
    assert state["Stage"]["variables"]["hits"] == 1
    assert not page.requests.blocked
