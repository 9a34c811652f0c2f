"""What to evaluate: one job per (agent, mode, task, run), and the specs workers rebuild from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ENV_IDS = {
    "primitive": "ScratchWorld-Primitive-v0",
    "composite": "ScratchWorld-Composite-v0",
}


@dataclass(frozen=True)
class AgentSpec:
    """An agent by name, mode and keyword arguments (picklable; see ``make_agent``)."""

    name: str
    mode: str = "primitive"
    kwargs: dict[str, Any] = field(default_factory=dict, hash=False)
    label: str = ""  # the row name in tables (default: name)

    @property
    def title(self) -> str:
        return self.label or self.name


@dataclass(frozen=True)
class EnvSpec:
    """How workers make environments: gym.make kwargs per mode."""

    reward_mode: str = "sparse"
    max_steps: int | None = None
    terminate_on_success: bool = False

    def make(self, mode: str) -> Any:
        import gymnasium as gym

        import scratch_gym  # noqa: F401  (registers the ids)

        if mode not in ENV_IDS:
            raise ValueError(f"unknown mode {mode!r}; allowed: {', '.join(ENV_IDS)}")
        kwargs: dict[str, Any] = {
            "reward_mode": self.reward_mode,
            "terminate_on_success": self.terminate_on_success,
            "render_mode": "rgb_array",
        }
        if self.max_steps:
            kwargs["max_steps"] = self.max_steps
        return gym.make(ENV_IDS[mode], **kwargs)


@dataclass(frozen=True)
class Job:
    agent: AgentSpec
    task: str
    category: str
    run: int
    seed: int
    record_dir: str | None = None
    scratchworld: str | None = None  # the task is from this ScratchWorld checkout

    @property
    def key(self) -> str:
        return f"{self.agent.title}|{self.agent.mode}|{self.task}|{self.run}"

    def load_task(self) -> Any:
        """The job's task: shipped (by id), or from its ScratchWorld checkout with its golden."""
        if self.scratchworld:
            from scratch_gym.tasks.scratchworld_golden import scratchworld_tasks

            return scratchworld_tasks(self.scratchworld, names=[self.task])[0]
        from scratch_gym.tasks import load_task

        return load_task(self.task)


def make_jobs(
    agent: AgentSpec,
    tasks: list[Any],
    runs: int = 1,
    seed: int = 0,
    record_dir: str | None = None,
    scratchworld: str | None = None,
) -> list[Job]:
    """``runs`` jobs per task (seeds ``seed + run``), recordings under ``record_dir/<key>``;
    ``scratchworld``: the checkout the tasks come from."""
    jobs = []
    for task in tasks:
        for run in range(runs):
            folder = None
            if record_dir:
                folder = f"{record_dir}/{agent.title}/{agent.mode}/{task.id}/run{run}"
            jobs.append(Job(agent, task.id, task.category, run, seed + run, folder, scratchworld))
    return jobs
