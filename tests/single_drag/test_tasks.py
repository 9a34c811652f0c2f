"""The stored tasks: enough of each kind, regions present, and the oracle solves every one."""

from __future__ import annotations

import dataclasses
import os
from collections import Counter

import pytest

from scratch_gym.agents.single_drag import DragOracleAgent
from scratch_gym.runner.episode import run_episode
from scratch_gym.single_drag.metrics import RunRecord, table_summary
from scratch_gym.single_drag.tasks.task import load_tasks, read_task, save_regions, task_dir
from scratch_gym.suites.single_drag import SingleDragSuite


def test_task_set_covers_both_kinds_views_and_sources():
    tasks = load_tasks()
    kinds = Counter(t.kind for t in tasks)
    assert kinds["direct_connection"] >= 30 and kinds["slot_insertion"] >= 30
    assert len({t.view.category for t in tasks}) >= 7
    assert len({t.view.scale for t in tasks}) >= 5
    assert {t.source.origin for t in tasks} == {"flyout", "canvas"}
    assert any(g.input == "SUBSTACK2" for t in tasks for g in t.goal)
    for t in tasks:
        assert t.regions is not None and t.regions.method == "bfs", t.id
        assert len(t.regions.start) and len(t.regions.end), t.id


def test_oracle_succeeds_on_stored_tasks(drag_env):
    """A slice in CI (every fourth task; all with SCRATCH_GYM_FULL=1); every task is the command
    ``scratch-gym eval --suite single-drag --agent oracle --workers 2``."""
    tasks = load_tasks()
    tasks = tasks if os.environ.get("SCRATCH_GYM_FULL") == "1" else tasks[::4]
    drag_env.setting = "baseline"
    judge = SingleDragSuite("baseline").judge
    records = [
        RunRecord.from_outcome(t.id, 0, run_episode(drag_env, DragOracleAgent(), t, judge=judge))
        for t in tasks
    ]
    summary = table_summary(records)
    failed = [r.task_id for r in records if not r.success]
    assert not failed, f"oracle failed on {failed}"
    assert summary["pass@1"] == 1.0 and summary["start_acc"] == 1.0


def test_a_task_folder_holds_the_authored_toml_and_the_computed_regions(tmp_path):
    """``tasks/single_drag/<id>/``: ``task.toml`` (scratchblocks text as multi-line strings) and
    ``regions.json``; ``save_regions`` writes only the regions."""
    [task] = load_tasks(["dc-05"])
    folder = tmp_path / "dc-05"
    folder.mkdir()
    toml = (task_dir() / "dc-05" / "task.toml").read_text()
    (folder / "task.toml").write_text(toml)
    [copy] = load_tasks(folder=tmp_path)
    assert copy.regions is None and copy.project == task.project
    assert copy.project["scripts"][0]["text"] == "when flag clicked\nsay [Hi!]\nhide\nshow"
    save_regions(task, tmp_path)
    assert (folder / "task.toml").read_text() == toml
    [copy] = load_tasks(folder=tmp_path)
    assert copy.to_json() == task.to_json()


def test_the_program_task_registry_passes_the_drag_tasks_by():
    """``tasks/single_drag/<id>/task.toml`` sits where program tasks sit, with its own schema."""
    from scratch_gym.tasks.registry import TaskRegistry

    registry = TaskRegistry()
    drag_ids = {t.id for t in load_tasks()}
    assert len(registry.ids()) >= 96 and not drag_ids & set(registry.ids())
    [registry.load(i) for i in registry.ids()]  # all load (a drag task would fail the schema)


def test_broken_task_folders_are_named(tmp_path):
    folder = tmp_path / "dc-99"
    folder.mkdir()
    (folder / "task.toml").write_text('id = "dc-99"\nkind = [')
    with pytest.raises(ValueError, match=r"dc-99/task.toml: not valid TOML"):
        load_tasks(folder=tmp_path)
    (folder / "task.toml").write_text((task_dir() / "dc-05" / "task.toml").read_text())
    with pytest.raises(ValueError, match="id 'dc-05' differs from its folder 'dc-99'"):
        load_tasks(folder=tmp_path)
    without = dataclasses.replace(read_task(task_dir() / "dc-05"), regions=None)
    with pytest.raises(ValueError, match="no regions to save"):
        save_regions(without, tmp_path)
