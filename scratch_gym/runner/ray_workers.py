"""Spreading episodes over a Ray cluster: one actor per worker, each owning its environments.

``address`` is what ``ray.init`` takes: a cluster's GCS address ``"HOST:6379"`` (from a machine
that can reach every node, e.g. one of them), ``"ray://HOST:10001"`` (Ray Client, from anywhere),
``"auto"`` (``$RAY_ADDRESS`` or the cluster this machine is a node of), or ``"local"`` to start a
Ray instance in this process. Every node needs scratch-gym and its editor installed
(``scratch-gym install``); actors are spread over the nodes, one CPU each. The user's task folders
(``$SCRATCH_GYM_TASKS``, ``--tasks-dir``) are passed to the actors and must exist at the same
paths on every node.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from scratch_gym.runner.jobs import EnvSpec, Job
from scratch_gym.runner.workers import OnRecord
from scratch_gym.tasks.registry import TASKS_ENV


def run_jobs_ray(
    jobs: Sequence[Job],
    env_spec: EnvSpec,
    address: str,
    workers: int,
    on_record: OnRecord,
    actor_cpus: float = 1.0,
) -> None:
    import ray

    if not jobs:
        return
    started_here = not ray.is_initialized()
    if started_here:
        if address == "local":
            ray.init(include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    options: dict[str, Any] = {"num_cpus": actor_cpus, "scheduling_strategy": "SPREAD"}
    if os.environ.get(TASKS_ENV):
        options["runtime_env"] = {"env_vars": {TASKS_ENV: os.environ[TASKS_ENV]}}
    Actor = ray.remote(**options)(_RayWorker)
    actors = [Actor.remote(env_spec) for _ in range(max(1, min(workers, len(jobs))))]
    try:
        pending: dict[Any, Any] = {}
        queue = list(jobs)
        for actor in actors:
            if queue:
                pending[actor.run.remote(queue.pop(0))] = actor
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            actor = pending.pop(done[0])
            on_record(ray.get(done[0]))
            if queue:
                pending[actor.run.remote(queue.pop(0))] = actor
        ray.get([a.close.remote() for a in actors])
    finally:
        for actor in actors:
            ray.kill(actor)
        if started_here:
            ray.shutdown()


class _RayWorker:
    def __init__(self, env_spec: EnvSpec) -> None:
        from scratch_gym.runner.worker import EpisodeWorker

        self.worker = EpisodeWorker(env_spec)

    def run(self, job: Job) -> dict[str, Any]:
        return self.worker.run(job)

    def close(self) -> None:
        self.worker.close()
