"""A worker owns its environments (one per mode) and agents, and turns jobs into records.

The same class runs inline, in a worker process (:mod:`scratch_gym.runner.workers`) and as a Ray
actor (:mod:`scratch_gym.runner.ray_workers`).
"""

from __future__ import annotations

import os
import socket
import time
from typing import Any

from scratch_gym.agents.base import Agent
from scratch_gym.agents.factory import make_agent
from scratch_gym.records.status import INFRASTRUCTURE_ERROR
from scratch_gym.runner.episode import run_with_retries
from scratch_gym.runner.jobs import AgentSpec, EnvSpec, Job
from scratch_gym.suites import Suite


def job_record(job: Job, outcome: dict[str, Any], started: float, host: str = "") -> dict[str, Any]:
    """The results-file record of ``job``: its identity, the episode's outcome, where it ran."""
    return {
        "key": job.key,
        "agent": job.agent.title,
        "agent_name": job.agent.name,
        "mode": job.agent.mode,
        "suite": job.suite.name,
        "task": job.task,
        "category": job.category,
        "run": job.run,
        "seed": job.seed,
        **job.suite.record_fields(job.agent.mode),
        **outcome,
        "started": started,
        "host": host or f"{socket.gethostname()}:{os.getpid()}",
    }


class EpisodeWorker:
    def __init__(self, env_spec: EnvSpec) -> None:
        self.env_spec = env_spec
        self.envs: dict[tuple[Suite, str], Any] = {}
        self.agents: dict[str, Agent] = {}

    def env(self, suite: Suite, mode: str) -> Any:
        """This worker's environment of ``suite`` for agents in ``mode`` (made on first use)."""
        if (suite, mode) not in self.envs:
            self.envs[(suite, mode)] = self.env_spec.make(mode, suite)
        return self.envs[(suite, mode)]

    def agent(self, spec: AgentSpec) -> Agent:
        key = f"{spec.title}|{spec.mode}"
        if key not in self.agents:
            self.agents[key] = make_agent(spec.name, spec.mode, **dict(spec.kwargs))
        return self.agents[key]

    def run(self, job: Job) -> dict[str, Any]:
        mode, suite = job.agent.mode, job.suite
        started = time.time()
        try:
            suite.check_mode(mode)
            task = job.load_task()
            outcome, self.envs[(suite, mode)] = run_with_retries(
                lambda: self.env_spec.make(mode, suite),
                self.env(suite, mode),
                self.agent(job.agent),
                task,
                seed=job.seed,
                record_dir=job.record_dir,
                judge=suite.judge,
            )
        except Exception as exc:  # noqa: BLE001 - e.g. the browser could not start at all
            outcome = {"status": INFRASTRUCTURE_ERROR, "error": f"{type(exc).__name__}: {exc}"}
        return job_record(job, outcome, started)

    def close(self) -> None:
        for env in self.envs.values():
            env.close()
        self.envs.clear()
        for agent in self.agents.values():
            agent.close()
        self.agents.clear()
