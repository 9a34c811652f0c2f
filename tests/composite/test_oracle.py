"""The composite oracle solves representative tasks with composite actions only."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import pytest

import scratch_gym  # noqa: F401  (registers the ids)
from scratch_gym.agents.composite_oracle import CompositeOracleAgent
from scratch_gym.agents.composite_plan import BlockTree, align_stacks
from scratch_gym.agents.factory import make_agent
from scratch_gym.agents.golden import project_json
from scratch_gym.program import ProjectBuilder
from scratch_gym.scratchworld.tasks import scratchworld_tasks
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


@pytest.mark.browser
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
    def n(op: str) -> BlockTree:
        return BlockTree(op, op, (op,))

    now = [n("a"), n("x"), n("b"), n("c")]
    want = [n("a"), n("b"), n("y"), n("c")]
    assert align_stacks(now, want, force_first=True) == [(0, 0), (2, 1), (3, 3)]


# A ScratchWorld-format task whose start project has `number` as a global variable and whose golden
# makes `number` local to Sprite1 (ScratchWorld's check_harshad_number is such a task). The editor
# refuses a local with a global's name; the oracle uses the global.
SAYS_NUMBER = """
module.exports = async (vm, config, cleanup) => {
  const EU = window.EvaluationUtils;
  let said = null;
  vm.runtime.on('SAY', (target, type, text) => { said = String(text); });
  EU.startVM(vm);
  vm.greenFlag();
  await EU.wait(500);
  cleanup();
  const passed = said === '7';
  return {success: passed, passed_tests: passed ? 1 : 0, total_tests: 1,
    details: [{name: 'says_7', passed, meta: {said}}]};
};
"""


@pytest.mark.browser
def test_oracle_uses_a_global_where_the_golden_makes_a_local_of_the_same_name(tmp_path):
    static = tmp_path / "scratch-gui" / "static"
    scripts = tmp_path / "scratch-bench-api" / "api" / "evaluation_scripts"
    tasks = tmp_path / "tasks" / "compute"
    for folder in (static, scripts, tasks):
        folder.mkdir(parents=True)
    ProjectBuilder().variable("number", 0).save_sb3(static / "say_number.sb3")
    golden = "when @greenFlag clicked\nset [number v] to (7)\nsay (number)"
    ProjectBuilder().sprite("Sprite1", scripts=golden, variables={"number": 0}).save_sb3(
        static / "say_number_golden.sb3"
    )
    utils = Path(__file__).resolve().parent.parent / "fixtures" / "scratchworld"
    utils = utils / "scratch-bench-api" / "api" / "evaluation_scripts" / "evaluation_utils.js"
    (scripts / "evaluation_utils.js").write_text(utils.read_text())
    (scripts / "say_number.js").write_text(SAYS_NUMBER)
    (tasks / "say_number.json").write_text(
        json.dumps(
            {
                "name": "say_number",
                "type": "compute",
                "instruction": "Set number to 7 and say it.",
                "initial_project": "say_number.sb3",
                "evaluation": {"function": "say_number", "timeout": 10},
            }
        )
    )
    (task,) = scratchworld_tasks(tmp_path, names=["say_number"])  # paired with its golden
    env = gym.make("ScratchWorld-Composite-v0")
    try:
        agent = make_agent("oracle", "composite")
        agent.bind(env)
        obs, info = env.reset(options=task.reset_options())
        agent.reset(task)
        terminated = truncated = False
        while not (terminated or truncated):
            action = agent.act(obs, info)
            assert action["api"] != "add_variable", action
            obs, _, terminated, truncated, info = env.step(action)
            assert not obs["last_action_error"], obs["last_action_error"]
        assert info["success"], info
    finally:
        env.close()
