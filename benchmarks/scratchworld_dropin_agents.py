"""Their runner with their other agents, for ``scratchworld_dropin.py``: Agent-S2 (primitive
mode, the only one ScratchWorld runs it in) and AWM (composite, then primitive), each on the
benchmark's tasks in one working folder of its own, so their memories (Agent-S2's knowledge base,
AWM's workflows) carry over from task to task as in their runs."""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from scratch_gym.serve.dropin import (
    RunnerResult,
    run_results,
    run_task_runner,
    run_task_runner_batched,
    task_category,
)
from scratch_gym.serve.verdicts import Run

AGENT_MODES = {"awm": ("composite", "primitive"), "agent-s2": ("primitive",)}

Row = tuple[str, str, str, bool, Any]  # task, mode, agent, success, steps used


def run_agents(
    python: Path,
    checkout: Path,
    url: str,
    llm_base_url: str,
    tasks: list[str],
    agents: list[str],
    max_steps: int,
    parallel: int,
    workroot: Path | None = None,
    wait_cap_s: float | None = None,
) -> tuple[list[Row], dict[str, float], list[bool], list[Run]]:
    """``(rows, runner wall seconds by "agent/mode", whether results.py read each folder, the
    runs for verdict_agreement)``. Both modes run ``parallel`` at once, primitive mode in batches
    whose tasks' projects differ (the endpoint tells primitive sessions apart by their project). Working folders go
    under ``workroot`` (kept: the runs' exported projects are judged later), else temporary."""
    rows: list[Row] = []
    wall: dict[str, float] = {}
    read: list[bool] = []
    runs: list[Run] = []
    for agent in agents:
        for mode in AGENT_MODES.get(agent, ()):
            with tempfile.TemporaryDirectory(dir=workroot, prefix=f"{agent}-{mode}-") as tmp:
                t0 = time.perf_counter()
                runner = run_task_runner if mode == "composite" else run_task_runner_batched
                run = runner(
                    python, checkout, Path(tmp), url, llm_base_url, tasks, mode=mode, agent=agent,
                    max_steps=max_steps, parallel=parallel, timeout=3600, wait_cap_s=wait_cap_s,
                )  # fmt: skip
                wall[f"{agent}/{mode}"] = round(time.perf_counter() - t0, 1)
                for task in tasks:
                    result = run.result(task, task_category(checkout, task)) or {}
                    steps = (result.get("agent_interaction") or {}).get("steps_used")
                    rows.append((task, mode, agent, result.get("success") is True, steps))
                read.append(run_results(python, checkout, run.result_dir).returncode == 0)
                runs += verdict_runs(run, checkout, tasks, f"{agent}/{mode}", workroot)
    return rows, wall, read, runs


def verdict_runs(
    run: RunnerResult, checkout: Path, tasks: list[str], label: str, keep: Path | None
) -> list[Run]:
    """Each task's run with their recorded success and the project their runner exported
    through serve (copied to ``keep``, which outlives the working folder)."""
    out = []
    for task in tasks:
        category = task_category(checkout, task)
        result = run.result(task, category) or {}
        sb3 = None
        name = result.get("output_file")
        if name and (run.result_dir / category / task / name).is_file():
            sb3 = run.result_dir / category / task / name
            if keep is not None:
                kept = keep / f"{label.replace('/', '-')}-{task}.sb3"
                kept.write_bytes(sb3.read_bytes())
                sb3 = kept
        folder = run.result_dir / category / task
        kept_folder = None
        if keep is not None and folder.is_dir():
            kept_folder = keep / "runs" / f"{label.replace('/', '-')}-{task}"
            shutil.copytree(folder, kept_folder, dirs_exist_ok=True)
        out.append(Run("task", task, label, result.get("success") is True, sb3, folder=kept_folder))
    return out


def agent_success(rows: list[Row]) -> dict[str, dict[str, float]]:
    """Their verdict's success rate, by agent and mode."""
    out: dict[str, dict[str, list[bool]]] = {}
    for _, mode, agent, ok, _ in rows:
        out.setdefault(agent, {}).setdefault(mode, []).append(ok)
    return {a: {m: sum(v) / len(v) for m, v in modes.items()} for a, modes in out.items()}
