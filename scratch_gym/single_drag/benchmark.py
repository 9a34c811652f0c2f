"""Running agents on the stored single-drag tasks in one env (the ``single-drag`` command): the
one episode loop of the runner, with the suite's judge; records and the paper's summary."""

from __future__ import annotations

from typing import Any

from tqdm import tqdm

from scratch_gym.agents.base import Agent
from scratch_gym.runner.episode import run_episode
from scratch_gym.single_drag.env import SingleDragEnv
from scratch_gym.single_drag.metrics import RunRecord, table_summary
from scratch_gym.single_drag.task import Task
from scratch_gym.suites.single_drag import SingleDragSuite


def run_agent(
    env: SingleDragEnv,
    agent: Agent,
    tasks: list[Task],
    setting: str = "baseline",
    runs: int = 3,
    progress: bool = True,
    seed: int = 0,
) -> tuple[list[RunRecord], dict[str, Any]]:
    """``runs`` one-drag episodes per task (seeds ``seed + run``); returns the records and their
    summary, with the median step time."""
    env.setting = setting
    judge = SingleDragSuite(setting).judge
    records: list[RunRecord] = []
    step_ms: list[float] = []
    bar = tqdm(total=len(tasks) * runs, desc=f"{agent.name}/{setting}", disable=not progress)
    for task in tasks:
        for run in range(runs):
            outcome = run_episode(
                env,
                agent,
                task,
                seed=seed + run,
                judge=judge,
                on_step=lambda _n, _a, _r, info: step_ms.append(float(info["step_time_ms"])),
            )
            if "agent_exception" in outcome:
                raise RuntimeError(
                    f"{agent.name} failed on {task.id}: {outcome['agent_exception']}"
                )
            records.append(RunRecord.from_outcome(task.id, run, outcome))
            bar.update(1)
    bar.close()
    summary = table_summary(records)
    summary["step_ms_p50"] = sorted(step_ms)[len(step_ms) // 2] if step_ms else float("nan")
    return records, summary
