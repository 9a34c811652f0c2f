"""A task that cannot start: ``reset`` raises one ``TaskStartError`` naming the task and the cause,
leaves no episode, and the env stays usable (a step says "call reset() first", the next reset
with another task works, ``close()`` is idempotent). Real editor: the tasks are copies of
``fix-bounce`` in a temporary task folder whose starting project does not read, or reads but the
editor refuses it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import gymnasium as gym
import pytest

import scratch_gym  # noqa: F401  (registers the ids)
from scratch_gym.envs.scratch import ScratchEnv, TaskStartError
from scratch_gym.tasks import load_task

BROKEN = {
    # not a zip: reading the project fails
    "broken-sb3": ("start.sb3", b"PK\x03\x04 not a zip", "not a valid .sb3 (zip) archive"),
    # passes the checks of the project's top level, but the editor's VM refuses it
    "broken-json": (
        "start.json",
        json.dumps({"targets": [{"isStage": True}]}).encode(),
        "could not be loaded",
    ),
}


def broken_task(folder: Path, task_id: str) -> Path:
    """``fix-bounce`` as ``task_id`` in ``folder``, its start replaced by a broken project."""
    name, content, _ = BROKEN[task_id]
    copy = folder / "debug" / task_id
    shutil.copytree(load_task("fix-bounce").source, copy)
    (copy / name).write_bytes(content)
    toml = (copy / "task.toml").read_text()
    toml = toml.replace('id = "fix-bounce"', f'id = "{task_id}"')
    (copy / "task.toml").write_text(toml.replace('start = "start.toml"', f'start = "{name}"'))
    return folder


@pytest.mark.parametrize("task_id", sorted(BROKEN))
@pytest.mark.browser
def test_a_task_that_cannot_start_is_one_clear_error_and_the_env_stays_usable(tmp_path, task_id):
    env = gym.make("ScratchWorld-Composite-v0", tasks_dir=str(broken_task(tmp_path, task_id)))
    try:
        with pytest.raises(TaskStartError) as excinfo:
            env.reset(options={"task": task_id})
        message = str(excinfo.value)
        assert message.startswith(f"task '{task_id}' could not start: ")
        assert BROKEN[task_id][2] in message and excinfo.value.task_id == task_id
        assert env.unwrapped.episode is None and env.unwrapped.validator is None
        with pytest.raises(RuntimeError, match=r"last reset\(\) failed \(TaskStartError: task"):
            env.step({"api": "done", "args": {}})
        _, info = env.reset(options={"task": "fix-bounce"})
        assert info["task"] == "fix-bounce" and env.unwrapped.episode is not None
        _, reward, terminated, _, info = env.step({"api": "done", "args": {}})
        assert terminated and reward == 0.0 and info["psr"] == info["initial_psr"] < 1.0
    finally:
        env.close()
    env.close()  # idempotent


@pytest.mark.browser
def test_a_failed_start_after_an_episode_leaves_no_episode_to_step_on(tmp_path):
    env = gym.make("ScratchWorld-Composite-v0", tasks_dir=str(broken_task(tmp_path, "broken-sb3")))
    try:
        env.reset(options={"task": "fix-bounce"})
        assert env.unwrapped.episode is not None
        with pytest.raises(TaskStartError, match="task 'broken-sb3' could not start"):
            env.reset(options={"task": "broken-sb3"})
        assert env.unwrapped.episode is None
        with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
            env.step({"api": "done", "args": {}})
    finally:
        env.close()


def test_step_before_any_reset_says_to_call_reset_first():
    """The env itself (``gym.make``'s order wrapper says so too): no page is opened."""
    env = ScratchEnv(action="composite", observation="pseudocode")
    try:
        with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
            env.step({"api": "done", "args": {}})
    finally:
        env.close()
    env.close()
