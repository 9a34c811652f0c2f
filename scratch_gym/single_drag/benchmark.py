"""Running agents on the stored tasks: episodes in SingleDragEnv, records, the results table."""

from __future__ import annotations

from typing import Any

from tqdm import tqdm

from scratch_gym.single_drag.agents import Agent
from scratch_gym.single_drag.env import SingleDragEnv
from scratch_gym.single_drag.metrics import RunRecord, summarise
from scratch_gym.single_drag.task import Task


def run_agent(
    env: SingleDragEnv,
    agent: Agent,
    tasks: list[Task],
    setting: str = "baseline",
    runs: int = 3,
    progress: bool = True,
) -> tuple[list[RunRecord], dict[str, Any]]:
    """``runs`` one-drag episodes per task; returns the records and their summary, with the
    median step time."""
    records: list[RunRecord] = []
    step_ms: list[float] = []
    bar = tqdm(total=len(tasks) * runs, desc=f"{agent.name}/{setting}", disable=not progress)
    for task in tasks:
        for run in range(runs):
            obs, _ = env.reset(options={"task": task, "setting": setting})
            start, end = agent.act(obs, task, setting)
            _, _, _, _, info = env.step({"start": list(start), "end": list(end)})
            records.append(
                RunRecord(
                    task.id,
                    run,
                    bool(info["success"]),
                    bool(info["start_correct"]),
                    bool(info["end_correct"]),
                    float(info.get("start_error_px", float("nan"))),
                    float(info.get("end_error_px", float("nan"))),
                )
            )
            step_ms.append(float(info["step_time_ms"]))
            bar.update(1)
    bar.close()
    summary = summarise(records, tuple(range(1, min(runs, 3) + 1)))
    for k in range(runs + 1, 4):
        summary[f"pass@{k}"] = summary[f"pass@{runs}"]
    summary["step_ms_p50"] = sorted(step_ms)[len(step_ms) // 2] if step_ms else float("nan")
    return records, summary
