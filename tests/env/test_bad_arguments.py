"""Envs that survive bad input: a reset that raises leaves the env usable through ``gym.make``'s
wrappers (Gymnasium's env checker included), and ``task=``, ``tasks=`` and ``project=`` are checked
when the env is made, each error naming the argument and what is allowed. Real editor throughout:
after each bad argument, the corrected one runs an episode."""

from __future__ import annotations

import re
from pathlib import Path

import gymnasium as gym
import pytest

import scratch_gym  # noqa: F401  (registers the ids)
from scratch_gym.tasks import UnknownTaskError, list_tasks
from scratch_gym.tasks.projects import load_project


@pytest.mark.browser
def test_the_issue_repro_a_failed_first_reset_then_a_good_one_then_step():
    """Issue 36: the step after (failed reset, good reset) raised TypeError in the env checker."""
    e = gym.make("ScratchWorld-Composite-v0")
    try:
        with pytest.raises(UnknownTaskError, match="unknown task 'nope'"):
            e.reset(options={"task": "nope"})
        _, info = e.reset(options={"task": "fix-bounce"})
        assert info["task"] == "fix-bounce"
        _, reward, terminated, truncated, info = e.step({"api": "done", "args": {}})
        assert terminated and not truncated
        assert reward == 0.0 and info["psr"] == info["initial_psr"] < 1.0
    finally:
        e.close()


def _corrupt(tmp_path: Path) -> dict:
    bad = tmp_path / "bad.sb3"
    bad.write_bytes(b"PK\x03\x04 not a zip")
    return {"project": str(bad)}


@pytest.mark.parametrize(
    "bad_options",
    [
        lambda tmp: {"project": str(tmp / "missing.sb3")},
        _corrupt,
        lambda tmp: {"task": "fix-bonce"},
        lambda tmp: {"bogus": 1},
    ],
    ids=["missing-project", "corrupt-project", "unknown-task", "unknown-option"],
)
@pytest.mark.browser
def test_any_failed_first_reset_leaves_the_made_env_usable(bad_options, tmp_path):
    env = gym.make("ScratchWorld-Primitive-v0")
    try:
        with pytest.raises((OSError, ValueError, KeyError)):
            env.reset(options=bad_options(tmp_path))
        env.reset()
        _, _, _, _, info = env.step({"action_type": "click", "start": [600, 300]})
        assert info["last_action_error"] == "" and info["editing_target"] == "Sprite1"
    finally:
        env.close()


@pytest.mark.browser
def test_a_failed_reset_mid_life_ends_the_episode_until_a_good_reset():
    env = gym.make("ScratchWorld-Composite-v0")
    try:
        env.reset(options={"task": "fix-bounce"})
        env.step({"api": "select_sprite", "args": {"name": "Sprite1"}})
        with pytest.raises(UnknownTaskError):
            env.reset(options={"task": "nope"})
        # the old episode is gone: a step says why instead of acting on it
        with pytest.raises(RuntimeError, match=r"last reset\(\) failed .*unknown task 'nope'"):
            env.step({"api": "done", "args": {}})
        _, info = env.reset(options={"task": "fix-bounce"})
        assert info["task"] == "fix-bounce"
        assert env.step({"api": "done", "args": {}})[2]
    finally:
        env.close()


@pytest.mark.browser
def test_the_program_env_also_survives_a_failed_first_reset():
    env = gym.make("ScratchWorld-Program-v0")
    try:
        with pytest.raises(UnknownTaskError):
            env.reset(options={"task": "nope"})
        env.reset(options={"nl": "say hello", "reference": ["say [hello]"]})
        _, reward, terminated, _, info = env.step("when @greenFlag clicked\nsay [hello]")
        assert terminated and info["parsed"] and reward > 0
    finally:
        env.close()


# -- checked at make ------------------------------------------------------------------------------
def _suggestion(message: str) -> str:
    """The first name a did-you-mean offers."""
    found = re.search(r"did you mean:? '?([\w-]+)", message)
    assert found, message
    return found.group(1)


@pytest.mark.browser
def test_an_unknown_task_fails_at_make_and_its_suggestion_runs():
    with pytest.raises(ValueError) as excinfo:
        gym.make("ScratchWorld-Composite-v0", task="fix-bonce")
    message = str(excinfo.value)
    assert message.startswith("task='fix-bonce': unknown task 'fix-bonce'")
    assert "allowed: a task id" in message
    env = gym.make("ScratchWorld-Composite-v0", task=_suggestion(message))
    try:
        _, info = env.reset()
        assert info["task"] == "fix-bounce" and info["initial_psr"] < 1.0
    finally:
        env.close()


@pytest.mark.parametrize(
    ("tasks", "expected", "kind"),
    [
        ("creat", "unknown category 'creat' (did you mean 'create'?)", "category"),
        (["fix-bonce"], "unknown task 'fix-bonce' (did you mean 'fix-bounce'?)", "task"),
    ],
)
@pytest.mark.browser
def test_an_unknown_pool_entry_fails_at_make_and_its_suggestion_runs(tasks, expected, kind):
    with pytest.raises(ValueError) as excinfo:
        gym.make("ScratchWorld-Primitive-v0", tasks=tasks)
    message = str(excinfo.value)
    assert message.startswith(f"tasks={tasks!r}: {expected}")
    assert "allowed: 'all', a category (compute, create, debug, extend), a task id" in message
    fixed = _suggestion(message)
    env = gym.make("ScratchWorld-Primitive-v0", tasks=fixed if kind == "category" else [fixed])
    try:
        _, info = env.reset(seed=3)
        task = next(t for t in list_tasks() if t.id == info["task"])
        assert (task.category if kind == "category" else task.id) == fixed
    finally:
        env.close()


def test_an_empty_pool_fails_at_make():
    with pytest.raises(ValueError, match=r"tasks=\[\]: the selection \[\] holds no task; allowed:"):
        gym.make("ScratchWorld-Composite-v0", tasks=[])


def test_a_missing_project_fails_at_make(tmp_path):
    missing = tmp_path / "missing.sb3"
    with pytest.raises(ValueError) as excinfo:
        gym.make("ScratchWorld-Primitive-v0", project=str(missing))
    message = str(excinfo.value)
    assert f"project='{missing}': project file not found: {missing}" in message
    assert "allowed: an .sb3 file, a project.json file, a project dict or .sb3 bytes" in message


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("bad.sb3", b"PK\x03\x04 not a zip", "not a valid .sb3 (zip) archive"),
        ("bad.json", b'{"targets": 3}', "needs a non-empty 'targets' list"),
        ("bad.txt", b"\xff\xfe not json", "not an .sb3 archive and not valid project JSON"),
    ],
)
def test_a_corrupt_project_fails_at_make(tmp_path, name, content, expected):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(ValueError) as excinfo:
        gym.make("ScratchWorld-Composite-v0", project=str(path))
    assert str(excinfo.value).startswith(f"project='{path}': ")
    assert expected in str(excinfo.value) and "allowed: an .sb3 file" in str(excinfo.value)


@pytest.mark.browser
def test_a_good_project_argument_is_read_once_and_starts_every_episode(tmp_path):
    """The checked project is the one the editor shows (here a task's start, as an .sb3)."""
    start = load_project(next(t for t in list_tasks() if t.id == "fix-bounce").start)
    path = tmp_path / "start.sb3"
    path.write_bytes(start)
    env = gym.make("ScratchWorld-Composite-v0", project=str(path))
    try:
        path.unlink()  # read at make: the file is no longer needed
        for _ in range(2):
            _, info = env.reset()
            assert info["blocks"] > 0
    finally:
        env.close()
