"""How the drop-in benchmark schedules their runner's primitive runs at ``--parallel`` > 1: the
scripted endpoint claims a conversation's session by its loaded project, so no batch may hold
two tasks on the same project (:func:`scratch_gym.serve.dropin.project_batches`)."""

from __future__ import annotations

import json

from scratch_gym.serve.dropin import initial_project, project_batches


def test_no_batch_holds_two_tasks_on_one_project():
    projects = {
        "a1": "default.sb3",
        "b1": "maze.sb3",
        "a2": "default.sb3",
        "c1": "pong.sb3",
        "a3": "default.sb3",
        "b2": "maze.sb3",
        "d1": "fly.sb3",
    }
    batches = project_batches(projects)
    assert len(batches) == 3  # as many as the commonest project's tasks
    assert sorted(t for b in batches for t in b) == sorted(projects)  # each task once
    for batch in batches:
        assert len({projects[t] for t in batch}) == len(batch)
        assert batch == sorted(batch, key=list(projects).index)  # the given order kept
    assert max(map(len, batches)) - min(map(len, batches)) <= 1  # sizes as even as allowed


def test_distinct_projects_make_one_batch_and_none_make_none():
    assert project_batches({"x": "p.sb3", "y": "q.sb3", "z": "r.sb3"}) == [["x", "y", "z"]]
    assert project_batches({"x": "p.sb3", "y": "p.sb3"}) == [["x"], ["y"]]
    assert project_batches({}) == []


def test_initial_project_is_read_from_the_task_json(tmp_path):
    (tmp_path / "tasks" / "debug").mkdir(parents=True)
    task = {"task_name": "t", "initial_project": "pong_starter.sb3"}
    (tmp_path / "tasks" / "debug" / "t.json").write_text(json.dumps(task), encoding="utf-8")
    assert initial_project(tmp_path, "t") == "pong_starter.sb3"
