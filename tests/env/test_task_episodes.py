"""Episodes with tasks: instruction, initial evaluation, budgets, sampling, unknown ids."""

from __future__ import annotations

import gymnasium as gym
import pytest

from scratch_gym.tasks import UnknownTaskError, list_tasks


@pytest.fixture(scope="module")
def env():
    env = gym.make("ScratchWorld-Primitive-v0")
    yield env
    env.close()


@pytest.mark.browser
def test_reset_with_a_task_loads_it_and_evaluates_the_start(env):
    task = list_tasks()[0]
    obs, info = env.reset(options={"task": task.id})
    assert obs["instruction"] == task.instruction
    assert info["task"] == task.id
    assert [t["name"] for t in info["tests"]] == task.test_names
    assert info["initial_psr"] == info["psr"] < 1.0
    assert not info["success"]
    _, reward, terminated, truncated, info = env.step({"action_type": "done"})
    assert terminated and not truncated and reward == 0.0 and info["psr"] == info["initial_psr"]


@pytest.mark.browser
def test_task_budget_truncates(env):
    task = list_tasks()[0]
    env.reset(options={"task": task.id})
    truncated = False
    for _ in range(task.budget_for("primitive")):  # the primitive id uses primitive mode's budget
        _, _, _, truncated, _ = env.step({"action_type": "key", "keys": "Escape"})
    assert truncated


@pytest.mark.browser
def test_explicit_max_steps_overrides_the_task_budget():
    task = list_tasks()[0]
    assert task.step_budget > 2
    env = gym.make("ScratchWorld-Primitive-v0", task=task.id, max_steps=2)
    try:
        env.reset()
        assert not env.step({"action_type": "key", "keys": "Escape"})[3]
        assert env.step({"action_type": "key", "keys": "Escape"})[3]
    finally:
        env.close()


def test_unknown_task_lists_close_matches(env):
    task = list_tasks()[0]
    with pytest.raises(UnknownTaskError, match=f"did you mean: {task.id}"):
        env.reset(options={"task": task.id + "x"})


@pytest.mark.browser
def test_seeded_sampling_from_a_pool_is_reproducible():
    env = gym.make("ScratchWorld-Primitive-v0", tasks="all")
    try:
        first = [env.reset(seed=s)[1]["task"] for s in (1, 2, 3)]
        again = [env.reset(seed=s)[1]["task"] for s in (1, 2, 3)]
    finally:
        env.close()
    assert first == again
    assert set(first) <= {t.id for t in list_tasks()}


@pytest.mark.browser
def test_without_a_task_the_reward_is_zero_and_no_tests(env):
    obs, info = env.reset()
    assert obs["instruction"] == "" and "tests" not in info
    _, reward, _, _, info = env.step({"action_type": "click", "start": [600, 300]})
    assert reward == 0.0 and "psr" not in info
