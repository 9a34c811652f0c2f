"""The composite oracle solves representative tasks with composite actions only."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest

import scratch_gym  # noqa: F401  (registers the ids)
from scratch_gym.agents.composite_oracle import CompositeOracleAgent
from scratch_gym.agents.composite_plan import Node, align_stacks
from scratch_gym.agents.factory import make_agent
from scratch_gym.agents.golden import project_json
from scratch_gym.tasks import load_task
from scratch_gym.tasks.projects import load_project

# One task per category; fix-star-sizes has a custom block (define ... / its calls).
TASKS = ("click-counter", "fix-star-sizes", "add-jump", "sum-to-n")


@pytest.fixture(scope="module")
def per_step_env():
    env = gym.make("ScratchWorld-Composite-v0", reward_mode="per_step")
    yield env
    env.close()


def test_factory_builds_the_composite_oracle():
    assert isinstance(make_agent("oracle", "composite"), CompositeOracleAgent)


def test_a_custom_block_task_is_among_them():
    goldens = [json.dumps(project_json(load_project(load_task(t).golden))) for t in TASKS]
    assert any("procedures_definition" in g for g in goldens)


@pytest.mark.parametrize("task_id", TASKS)
def test_oracle_reaches_success(per_step_env, task_id):
    env, task = per_step_env, load_task(task_id)
    agent = CompositeOracleAgent()
    agent.bind(env)
    obs, info = env.reset(options={"task": task_id})
    agent.reset(task)
    initial, total, apis = info["initial_psr"], 0.0, set()
    terminated = truncated = False
    while not (terminated or truncated):
        action = agent.act(obs, info)
        apis.add(action["api"])
        obs, reward, terminated, truncated, info = env.step(action)
        assert not obs["last_action_error"], obs["last_action_error"]
        total += reward
    assert terminated and action["api"] == "done"
    assert info["success"] and info["psr"] == 1.0
    assert total == pytest.approx(1.0 - initial)
    assert apis <= {
        "select_sprite",
        "select_stage",
        "add_variable",
        "add_list",
        "add_block",
        "connect_blocks",
        "set_block_field",
        "delete_block",
        "done",
    }


def test_alignment_keeps_common_blocks_in_order():
    def n(op: str) -> Node:
        return Node(op, op, (op,))

    now = [n("a"), n("x"), n("b"), n("c")]
    want = [n("a"), n("b"), n("y"), n("c")]
    assert align_stacks(now, want, force_first=True) == [(0, 0), (2, 1), (3, 3)]
