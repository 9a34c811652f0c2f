"""Run one task with one agent and watch it: each step printed, optionally recorded.

For ``scratch-gym run --task ID --agent NAME``: :func:`run_task` returns the episode record.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scratch_gym.agents.factory import make_agent
from scratch_gym.runner.episode import run_with_retries
from scratch_gym.runner.jobs import EnvSpec
from scratch_gym.runner.recording import describe
from scratch_gym.suites.tasks import TaskSuite


def print_step(step: int, action: Any, reward: float, info: dict[str, Any]) -> None:
    err = info.get("last_action_error") or ""
    psr = info.get("psr")
    psr_text = f" psr {psr:.2f}" if isinstance(psr, (int, float)) else ""
    print(
        f"{step:3d}  {describe(action)[:90]:90s} {reward:+.2f}{psr_text}"
        f"  {info.get('step_time_ms', 0):.0f} ms" + (f"  error: {err}" if err else ""),
        flush=True,
    )


def run_task(
    task_id: str,
    agent: str = "oracle",
    mode: str = "primitive",
    *,
    record_dir: str | None = None,
    seed: int = 0,
    env: EnvSpec | None = None,
    observation: str | None = None,
    on_step: Callable[[int, Any, float, dict[str, Any]], None] | None = print_step,
    **agent_kwargs: Any,
) -> dict[str, Any]:
    """Play ``task_id`` once with the agent ``agent`` in ``mode``; returns the episode record.
    ``observation`` is a setting of the paper's observation ablation (primitive mode)."""
    from scratch_gym.tasks import load_task

    spec = env or EnvSpec(reward_mode="per_step")
    suite = TaskSuite(observation=observation)
    suite.check_mode(mode)
    task = load_task(task_id)
    policy = make_agent(agent, mode, **agent_kwargs)
    environment = spec.make(mode, suite)
    try:
        outcome, environment = run_with_retries(
            lambda: spec.make(mode, suite),
            environment,
            policy,
            task,
            seed=seed,
            record_dir=record_dir,
            on_step=on_step,
        )
    finally:
        environment.close()
        policy.close()
    return {
        "task": task.id,
        "category": task.category,
        "agent": agent,
        "mode": mode,
        **suite.record_fields(mode),
        **outcome,
    }
