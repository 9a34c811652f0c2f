"""Importing ScratchWorld's Single-Step Drag tasks, from a tiny synthetic checkout in their format
(the real checkout is not needed)."""

from __future__ import annotations

import json

import pytest

from scratch_gym.agents.single_drag import DragOracleAgent
from scratch_gym.scratchworld.drag import (
    ScratchWorldDragError,
    load_scratchworld_drag_tasks,
)
from scratch_gym.single_drag.feasible.cache import attach_regions, regions_cache_path
from scratch_gym.single_drag.feasible.geometry import Geometry
from scratch_gym.single_drag.tasks.regions import Region, Regions
from scratch_gym.single_drag.tasks.task import task_from_json
from scratch_gym.suites import make_suite
from tests.single_drag.scratchworld_checkout import (
    DRAG_START,
    TRANSLATE,
    checkout,
    project,
    task_file,
)


def test_import_maps_their_setup_onto_a_task(tmp_path):
    [task] = load_scratchworld_drag_tasks(checkout(tmp_path))
    assert task.id == "scratchworld-T1_001" and task.kind == "direct_connection"
    assert task.source.origin == "canvas" and task.source.block == "s1b1"
    assert [(g.rel, g.block) for g in task.goal] == [("below", "s0b1")]
    assert task.view.translate == TRANSLATE and task.view.scale == 0.675
    assert task.view.stage_size == "small" and task.view.target == "Sprite1"
    assert task.build_project() == project()  # the .sb3's own project (block ids kept)
    again = task_from_json(json.loads(json.dumps(task.to_json())))
    assert again.view == task.view and again.project_json == task.project_json
    # by id, with or without the prefix
    assert load_scratchworld_drag_tasks(tmp_path, ["T1_001"])[0].id == task.id
    assert load_scratchworld_drag_tasks(tmp_path, [task.id])[0].id == task.id


@pytest.mark.parametrize(
    ("kind", "input_name", "expected"),
    [
        ("parent", None, ("above", None)),
        ("substack_1", None, ("input", "SUBSTACK")),
        ("substack_2", None, ("input", "SUBSTACK2")),
        ("input", "CONDITION", ("input", "CONDITION")),
    ],
)
def test_connection_types_map_onto_goal_relations(tmp_path, kind, input_name, expected):
    data = task_file()
    data["evaluation_config"].update(connection_type=kind, target_input_name=input_name)
    [task] = load_scratchworld_drag_tasks(checkout(tmp_path, data))
    assert (task.goal[0].rel, task.goal[0].input) == expected


def test_a_palette_block_is_found_by_opcode(tmp_path):
    data = task_file()
    data["evaluation_config"].update(target_block_id=None, use_flyout=True)
    data["evaluation_config"]["target_block_opcode"] = "motion_turnright"
    [task] = load_scratchworld_drag_tasks(checkout(tmp_path, data))
    assert task.source.origin == "flyout" and task.source.opcode == "motion_turnright"
    assert task.view.category == "motion"
    assert task.view.flyout_anchor == ("motion_turnright", 0, float(DRAG_START[1]))


def test_missing_and_malformed_checkouts_are_named(tmp_path):
    with pytest.raises(ScratchWorldDragError, match="no such ScratchWorld checkout"):
        load_scratchworld_drag_tasks(tmp_path / "nowhere")
    with pytest.raises(ScratchWorldDragError, match="single_step_drag_benchmark/tasks/ is missing"):
        load_scratchworld_drag_tasks(tmp_path)
    bad = checkout(tmp_path / "a", "{not json")
    with pytest.raises(ScratchWorldDragError, match=r"T1_001\.json: not a readable JSON"):
        load_scratchworld_drag_tasks(bad)
    no_sb3 = checkout(tmp_path / "b", sb3=False)
    with pytest.raises(
        ScratchWorldDragError, match=r"T1_001\.json: init_project .* does not exist"
    ):
        load_scratchworld_drag_tasks(no_sb3)
    data = task_file()
    data["evaluation_config"]["connection_type"] = "sideways"
    with pytest.raises(ScratchWorldDragError, match="unknown connection_type 'sideways'"):
        load_scratchworld_drag_tasks(checkout(tmp_path / "c", data))
    data = task_file()
    del data["evaluation_config"]["workspace_state"]
    with pytest.raises(ScratchWorldDragError, match="workspace_state"):
        load_scratchworld_drag_tasks(checkout(tmp_path / "d", data))
    with pytest.raises(KeyError, match="T9_999"):
        load_scratchworld_drag_tasks(checkout(tmp_path / "e"), ["T9_999"])
    with pytest.raises(ValueError, match="no such ScratchWorld checkout"):
        make_suite("single-drag", scratchworld=str(tmp_path / "nowhere")).select()


def test_regions_come_from_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SCRATCH_GYM_CACHE", str(tmp_path / "cache"))
    [task] = load_scratchworld_drag_tasks(checkout(tmp_path / "sw"))
    assert attach_regions([task], compute=False) == {task.id: "regions not computed yet"}
    square = Region.of([(480 + dx, 355 + dy) for dx in (0, 5) for dy in (0, 5)], 5)
    path = regions_cache_path(task)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(Regions(square, square, (480, 355), "bfs", {}).to_json()))
    suite = make_suite("single-drag", scratchworld=str(tmp_path / "sw"))
    [loaded] = suite.select(task_ids=["T1_001"])
    assert loaded.regions is not None and loaded.regions.anchor == (480, 355)
    assert suite.load("scratchworld-T1_001").regions.anchor == (480, 355)


def test_view_puts_their_start_point_on_the_block_and_the_oracle_solves_it(tmp_path, drag_env):
    [task] = load_scratchworld_drag_tasks(checkout(tmp_path))
    obs, info = drag_env.reset(options={"task": task})
    assert info["view"]["stage_size"] == "small" and info["view"]["target"] == "Sprite1"
    geo = Geometry.read(drag_env.page)
    block = geo.canvas_block("s1b1")
    left, top = block["path"][:2]
    assert abs(left - (1 + TRANSLATE[0] + 0.675 * 100)) < 2
    assert abs(top - (93 + TRANSLATE[1] + 0.675 * 300)) < 2
    hits = drag_env.page.call("single_drag.hitTest", {"id": "s1b1", "points": [DRAG_START]})
    assert hits == [DRAG_START]

    oracle = DragOracleAgent()
    oracle.bind(drag_env)
    oracle.reset(drag_env.task)
    _, reward, terminated, _, info = drag_env.step(oracle.act(obs, info))
    assert reward == 1.0 and terminated and info["start_correct"]


def test_regions_probed_by_the_drag_model_let_the_oracle_solve_it(tmp_path, monkeypatch, drag_env):
    """``regions="model"``: the BFS probes the calibrated drag model (one capture) instead of real
    drags; the regions are cached apart, hold the block's press point, and are feasible for real."""
    from scratch_gym.single_drag.feasible import cache as regions_cache

    # (not SCRATCH_GYM_CACHE: the editor itself is found through it)
    monkeypatch.setattr(regions_cache, "regions_cache_dir", lambda: tmp_path / "regions")
    suite = make_suite("single-drag", scratchworld=str(checkout(tmp_path / "sw")), regions="model")
    [task] = suite.select()
    assert task.regions.method == "bfs-model" and task.regions.start.contains(tuple(DRAG_START))
    assert regions_cache_path(task, "model").is_file() and not regions_cache_path(task).exists()
    assert suite.load("scratchworld-T1_001").regions.to_json() == task.regions.to_json()

    obs, info = drag_env.reset(options={"task": task})
    oracle = DragOracleAgent()
    oracle.bind(drag_env)
    oracle.reset(drag_env.task)
    _, reward, _, _, info = drag_env.step(oracle.act(obs, info))
    assert reward == 1.0 and info["start_correct"]


def test_an_unknown_or_inapplicable_region_probe_is_named(tmp_path):
    with pytest.raises(ValueError, match="regions must be one of"):
        make_suite("single-drag", scratchworld=str(tmp_path), regions="guess")
    with pytest.raises(ValueError, match="applies to a ScratchWorld checkout's tasks"):
        make_suite("single-drag", regions="model")
