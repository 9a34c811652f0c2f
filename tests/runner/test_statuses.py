"""An episode's status tells success, the agent's own failure, an agent error and an
infrastructure error apart; ``scratch-gym run`` exits with the matching code; the tables count
agent and infrastructure errors as non-successes (the paper's SR is over every selected task) and
show the infrastructure errors beside the rates; resume redoes only those."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import time

import gymnasium as gym
import pytest

from scratch_gym.agents.base import Agent, AgentError
from scratch_gym.agents.primitive_oracle import PrimitiveOracleAgent
from scratch_gym.cli import main
from scratch_gym.editor.browser import BrowserSession
from scratch_gym.records.status import EXIT_CODES, exit_code
from scratch_gym.runner import ResultsFile
from scratch_gym.runner.episode import run_episode, run_with_retries
from scratch_gym.suites.tasks import summary, table1
from scratch_gym.tasks import load_task

TASK = "say-hello"
CLICK = {"action_type": "click", "start": [600, 600]}  # empty code area: changes nothing


class Scripted(Agent):
    """Plays a fixed list of actions (then ``done``); ``raise_at`` raises instead at that step."""

    def __init__(self, actions=(), raise_at=None, error=RuntimeError, unsupported=""):
        super().__init__()
        self.actions, self.raise_at, self.error, self.unsupported = (
            actions,
            raise_at,
            error,
            unsupported,
        )

    def reset(self, task=None):
        super().reset(task)
        self.i = 0

    def act(self, observation, info):
        self.i += 1
        if self.raise_at == self.i:
            raise self.error("boom")
        self.info = {"unsupported": self.unsupported} if self.unsupported else {}
        return self.actions[self.i - 1] if self.i <= len(self.actions) else {"action_type": "done"}


@pytest.fixture(scope="module")
def env():
    environment = gym.make("ScratchWorld-Primitive-v0", reward_mode="sparse", max_steps=3)
    yield environment
    environment.close()


@pytest.mark.browser
def test_failure_by_the_agents_choice_or_budget(env):
    task = load_task(TASK)
    failed = run_episode(env, Scripted([{"action_type": "failed"}]), task)
    assert (failed["status"], failed["ended_by"], failed["success"]) == ("failure", "failed", False)
    done = run_episode(env, Scripted(), task)
    assert (done["status"], done["ended_by"]) == ("failure", "done")
    budget = run_episode(env, Scripted([CLICK] * 5), task)
    assert (budget["status"], budget["ended_by"], budget["steps"]) == ("failure", "budget", 3)
    assert budget["truncated"] and not budget["terminated"]


@pytest.mark.browser
def test_agent_errors_exception_and_unplannable_task(env):
    task = load_task(TASK)
    crashed = run_episode(env, Scripted([CLICK], 2), task)
    assert crashed["status"] == "agent_error" and crashed["ended_by"] == "exception"
    assert "RuntimeError: boom" in crashed["agent_exception"] and crashed["steps"] == 1
    unplanned = Scripted([{"action_type": "failed"}], unsupported="the golden adds a target")
    outcome = run_episode(env, unplanned, task)
    assert (
        outcome["status"] == "agent_error" and outcome["unsupported"] == "the golden adds a target"
    )
    # an agent that cannot even start on the task (the oracle without a golden) is the agent's
    from scratch_gym.agents.factory import make_agent

    no_golden = dataclasses.replace(task, golden=None)
    outcome = run_episode(env, make_agent("oracle", "composite"), no_golden)
    assert outcome["status"] == "agent_error" and outcome["steps"] == 0
    assert "needs a task with a golden solution" in outcome["agent_exception"]


@pytest.mark.browser
def test_an_unreachable_model_api_is_an_infrastructure_error(env):
    outcome, _ = run_with_retries(
        lambda: env, env, Scripted(raise_at=1, error=AgentError), load_task(TASK)
    )
    assert outcome["status"] == "infrastructure_error" and outcome["infrastructure"] == "agent_api"
    assert exit_code(outcome) == EXIT_CODES["infrastructure_error"] == 4


def test_tables_and_resume_treat_statuses_apart(tmp_path):
    store = ResultsFile(tmp_path / "r.jsonl")
    base = {"agent": "a", "mode": "primitive", "category": "create", "psr": 0.0}
    store.append({**base, "key": "1", "status": "success", "success": True, "psr": 1.0})
    store.append({**base, "key": "2", "status": "failure", "success": False})
    store.append({**base, "key": "3", "status": "agent_error", "success": False})
    store.append({**base, "key": "4", "status": "infrastructure_error"})
    store.append({**base, "key": "5", "status": "ok", "success": True, "psr": 1.0})  # old files
    records = store.records()
    s = summary(records)
    assert (s["episodes"], s["agent_errors"], s["infra"]) == (5, 1, 1)
    assert s["sr"] == 0.4 and s["psr"] == 0.4  # the infrastructure error: a failure, PSR 0
    assert store.done_keys() == {"1", "2", "3", "5"}  # the infrastructure error is redone
    row = next(line for line in table1(records).splitlines() if line.startswith("a "))
    assert row.split()[-3:] == ["5", "1", "1"]


class BrowserKiller(Agent):
    """Kills the editor's Chromium (SIGKILL) instead of acting: fault injection, no mock."""

    def __init__(self, session):
        super().__init__()
        self.session = session

    def act(self, observation, info):
        os.kill(self.session.main_pid(), signal.SIGKILL)
        time.sleep(0.5)
        return CLICK


@pytest.mark.browser
def test_an_infrastructure_failure_counts_as_a_failure_in_sr():
    """A browser killed under the episode, retries spent: the record is an infrastructure error,
    and SR and PSR count it as a failed task (the paper's denominator: every selected task)."""
    session = BrowserSession()  # private: killing it must not disturb other tests
    env = gym.make("ScratchWorld-Primitive-v0", reward_mode="sparse", browser=session)
    task = load_task(TASK)
    try:
        killed, env = run_with_retries(lambda: env, env, BrowserKiller(session), task, retries=0)
        solved = run_episode(env, PrimitiveOracleAgent(), task)  # reset() recovers the browser
    finally:
        env.close()
    assert killed["status"] == "infrastructure_error", killed
    assert solved["status"] == "success", solved
    base = {"agent": "oracle", "mode": "primitive", "category": "create"}
    records = [{**base, "task": TASK, **solved}, {**base, "task": "other", **killed}]
    s = summary(records)
    assert (s["episodes"], s["infra"], s["sr"], s["psr"]) == (2, 1, 0.5, 0.5)
    assert s["categories"]["create"]["sr"] == 0.5
    row = next(line for line in table1(records).splitlines() if line.startswith("oracle "))
    assert row.split()[5:10] == ["50.0", "50.0", "2", "0", "1"]  # SR, PSR, episodes, errors, infra
    assert "elements/step" in table1(records)  # then the element list's size, from the solved one


@pytest.mark.browser
def test_run_exits_with_the_episodes_status(capsys):
    assert main(["run", "--task", TASK, "--agent", "oracle", "--mode", "composite"]) == 0
    assert "status: success" in capsys.readouterr().out
    assert (
        main(["run", "--task", TASK, "--agent", "oracle", "--observation", "screen", "--json"]) == 0
    )
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert record["status"] == "success" and record["observation"] == "screen"
    # seed 30: the random agent's first action on this task is `done` (runner.episode.agent_seed)
    assert main(["run", "--task", TASK, "--agent", "random", "--seed", "30"]) == 1
    assert "status: failure (done)" in capsys.readouterr().out
    unreachable = ["--base-url", "http://127.0.0.1:9/v1", "--max-retries", "0"]
    assert main(["run", "--task", TASK, "--agent", "llm", *unreachable]) == 4
    assert "status: infrastructure_error" in capsys.readouterr().out


def test_docs_and_help_document_every_exit_code():
    from pathlib import Path

    from scratch_gym.records.status import exit_codes_help

    runs_doc = (Path(__file__).resolve().parents[2] / "docs" / "runs.md").read_text()
    help_text = exit_codes_help()
    for status, code in EXIT_CODES.items():
        assert f"| {code} | `{status}` |" in runs_doc
        assert f"  {code}  {status}: " in help_text
