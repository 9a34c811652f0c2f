"""The user's own task folders: --tasks-dir, $SCRATCH_GYM_TASKS, gym.make(tasks_dir=), clashes,
and the `tasks new` scaffold (which must not pass a check until it is filled in)."""

from __future__ import annotations

import json
import os
import shutil

import gymnasium as gym
import pytest

from scratch_gym.cli import main
from scratch_gym.paths import tasks_dir
from scratch_gym.tasks import TaskError
from scratch_gym.tasks.registry import TASKS_ENV, TaskRegistry, default_registry

BUILTIN = tasks_dir() / "create" / "say-hello"


@pytest.fixture(autouse=True)
def no_user_tasks(monkeypatch):
    """Each test starts without $SCRATCH_GYM_TASKS (the CLI's --tasks-dir writes to it)."""
    monkeypatch.delenv(TASKS_ENV, raising=False)


def own_copy(root, task_id="my-hello", category="create"):
    """A user's task folder holding a copy of say-hello under a new id."""
    folder = root / category / task_id
    shutil.copytree(BUILTIN, folder)
    toml = (folder / "task.toml").read_text()
    (folder / "task.toml").write_text(
        toml.replace('id = "say-hello"', f'id = "{task_id}"').replace(
            'category = "create"', f'category = "{category}"'
        )
    )
    return folder


def test_a_users_folder_adds_its_tasks_to_the_shipped_ones(tmp_path):
    own_copy(tmp_path)
    registry = TaskRegistry(extra_dirs=[tmp_path])
    task = registry.load("my-hello")
    assert task.source == tmp_path / "create" / "my-hello"
    assert "say-hello" in registry.ids() and len(task.tests) == 3  # same loader, same tests


def test_an_id_that_clashes_with_a_shipped_task_names_both_files(tmp_path):
    own_copy(tmp_path, task_id="say-hello")
    with pytest.raises(TaskError) as info:
        TaskRegistry(extra_dirs=[tmp_path]).ids()
    message = str(info.value)
    assert str(BUILTIN / "task.toml") in message
    assert str(tmp_path / "create" / "say-hello" / "task.toml") in message


def test_a_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(TaskError, match="does not exist"):
        TaskRegistry(extra_dirs=[tmp_path / "nope"])


def test_the_environment_variable_lists_folders(tmp_path, monkeypatch):
    one, two = tmp_path / "one", tmp_path / "two"
    own_copy(one, "first-hello")
    own_copy(two, "second-hello", category="extend")
    monkeypatch.setenv(TASKS_ENV, os.pathsep.join([str(one), str(two)]))
    ids = default_registry().ids()
    assert {"first-hello", "second-hello", "say-hello"} <= set(ids)
    assert default_registry().load("second-hello").category == "extend"
    monkeypatch.delenv(TASKS_ENV)
    assert "first-hello" not in default_registry().ids()


def test_cli_tasks_dir_on_list_and_errors(tmp_path, capsys):
    own_copy(tmp_path)
    assert main(["tasks", "list", "--tasks-dir", str(tmp_path), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert "my-hello" in [t["id"] for t in listed["tasks"]]
    assert main(["tasks", "list", "--tasks-dir", str(tmp_path / "missing")]) == 2
    assert "task folder does not exist" in capsys.readouterr().err
    own_copy(tmp_path, task_id="say-hello")
    assert main(["tasks", "list", "--tasks-dir", str(tmp_path)]) == 2
    assert "used twice" in capsys.readouterr().err


def test_every_task_reading_command_takes_tasks_dir():
    from scratch_gym.cli import build_parser

    parser = build_parser()
    for argv in (
        ["tasks", "list"],
        ["tasks", "check", "x"],
        ["tasks", "evaluate", "x"],
        ["tasks", "--stats"],
        ["eval"],
        ["run"],
    ):
        args = parser.parse_args([*argv, "--tasks-dir", "/a", "--tasks-dir", "/b"])
        dirs = args.stats_tasks_dirs if argv == ["tasks", "--stats"] else args.tasks_dirs
        assert dirs == ["/a", "/b"], argv


@pytest.mark.browser
def test_gym_make_takes_tasks_dir(tmp_path):
    own_copy(tmp_path)
    with pytest.raises(TaskError, match="does not exist"):
        gym.make("ScratchWorld-Composite-v0", tasks_dir=tmp_path / "nope")
    env = gym.make("ScratchWorld-Composite-v0", tasks_dir=tmp_path, task="my-hello")
    try:
        _obs, info = env.reset(seed=0)
        assert info["task"] == "my-hello"
    finally:
        env.close()


def test_an_unfilled_scaffold_fails_the_check_saying_what_to_fill_in(tmp_path, capsys):
    assert main(["tasks", "new", "my-task", "--category", "create", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"scratch-gym tasks check my-task --tasks-dir {tmp_path}" in out
    folder = tmp_path / "create" / "my-task"
    assert sorted(p.name for p in folder.iterdir()) == [
        "golden.toml",
        "start.toml",
        "task.toml",
        "tests.py",
    ]
    assert main(["tasks", "check", "my-task", "--tasks-dir", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "not filled in yet" in out
    assert "task.toml: write the instruction" in out
    assert "golden.toml: add the solution's scripts" in out
    assert "tests.py: replace test_todo_write_your_tests" in out
    # a second scaffold of the same id does not overwrite the author's work
    assert main(["tasks", "new", "my-task", "--category", "create", "--dir", str(tmp_path)]) == 2
