"""Running agents on the stored single-drag tasks in one env (the ``single-drag`` command): the
one episode loop of the runner, with the suite's judge; records and the paper's summary."""

from __future__ import annotations

from typing import Any

from tqdm import tqdm

from scratch_gym.agents.base import Agent
from scratch_gym.runner.episode import run_episode
from scratch_gym.single_drag.env import SingleDragEnv
from scratch_gym.single_drag.metrics import RunRecord, summarise
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
            records.append(
                RunRecord(
                    task.id,
                    run,
                    bool(outcome["success"]),
                    bool(outcome["start_correct"]),
                    bool(outcome["end_correct"]),
                    _float(outcome["start_error_px"]),
                    _float(outcome["end_error_px"]),
                )
            )
            bar.update(1)
    bar.close()
    summary = summarise(records, tuple(range(1, min(runs, 3) + 1)))
    for k in range(runs + 1, 4):
        summary[f"pass@{k}"] = summary[f"pass@{runs}"]
    summary["step_ms_p50"] = sorted(step_ms)[len(step_ms) // 2] if step_ms else float("nan")
    return records, summary


def _float(value: float | None) -> float:
    return float("nan") if value is None else float(value)
