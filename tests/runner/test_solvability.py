"""``tasks check ID --primitive``: the primitive oracle solves the task in the real editor within
a step budget of at least 1.25x its steps (the CI slice; the whole suite is a command)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from scratch_gym.cli import main
from scratch_gym.runner.solvability import check_oracle, step_budget
from scratch_gym.tasks import load_task


@pytest.mark.browser
def test_tasks_check_primitive_runs_the_primitive_oracle(capsys):
    assert main(["tasks", "check", "say-hello", "--primitive", "--json"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    report = json.loads(out[-1])
    oracle = report["primitive_oracle"]
    assert report["ok"] and oracle["ok"] and oracle["status"] == "success"
    assert oracle["mode"] == "primitive" and 3 <= oracle["steps"] and oracle["budget"] >= 50
    assert any(line.startswith("primitive oracle: success in") for line in out)


@pytest.mark.browser
def test_a_debug_task_is_solvable_and_a_tight_budget_is_reported():
    check = check_oracle(load_task("fix-bounce"), "primitive")
    assert check.ok, check.problems()
    tight = dataclasses.replace(check, budget=check.steps)  # under 1.25x the oracle's steps
    assert not tight.ok and "below 1.25x" in tight.problems()[0]
    failed = dataclasses.replace(check, status="agent_error", detail="unsupported: x")
    assert not failed.ok and "did not solve" in failed.problems()[0]


def test_the_step_budget_is_read_through_the_envs_public_accessor():
    task = load_task("acronym")  # its primitive budget is its own
    assert task.budget_for("primitive") != task.budget_for("composite")
    for mode in ("primitive", "composite"):
        assert step_budget(task, mode) == task.budget_for(mode)  # no page is opened
