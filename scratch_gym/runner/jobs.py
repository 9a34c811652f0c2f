"""What to evaluate: one job per (agent, mode, task, run) of a suite, and the specs workers
rebuild their agents and environments from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scratch_gym.suites import Suite, TaskSuite


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
    """How workers make environments (the task suite's options; each suite makes its own)."""

    reward_mode: str = "sparse"
    max_steps: int | None = None
    terminate_on_success: bool = False

    def make(self, mode: str, suite: Suite | None = None) -> Any:
        """A new environment of ``suite`` (default: the task suite) for agents in ``mode``."""
        return (suite or TaskSuite()).make_env(mode, self)


@dataclass(frozen=True)
class Job:
    agent: AgentSpec
    task: str
    category: str
    run: int
    seed: int
    record_dir: str | None = None
    suite: Suite = field(default_factory=TaskSuite)

    @property
    def key(self) -> str:
        key = f"{self.agent.title}|{self.agent.mode}|{self.task}|{self.run}"
        return f"{key}|{self.suite.variant}" if self.suite.variant else key

    def load_task(self) -> Any:
        """The job's task, loaded by its suite."""
        return self.suite.load(self.task)


def make_jobs(
    agent: AgentSpec,
    tasks: list[Any],
    runs: int = 1,
    seed: int = 0,
    record_dir: str | None = None,
    suite: Suite | None = None,
) -> list[Job]:
    """``runs`` jobs per task of ``suite`` (seeds ``seed + run``), recordings under
    ``record_dir/<agent>/<mode>/<task>/run<k>``."""
    suite = suite or TaskSuite()
    jobs = []
    for task in tasks:
        for run in range(runs):
            folder = None
            if record_dir:
                folder = f"{record_dir}/{agent.title}/{agent.mode}/{task.id}/run{run}"
            jobs.append(Job(agent, task.id, task.category, run, seed + run, folder, suite))
    return jobs
