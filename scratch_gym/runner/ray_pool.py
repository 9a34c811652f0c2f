"""Spreading episodes over a Ray cluster: one actor per worker, each owning its environments.

``address`` is what ``ray.init`` takes (``"auto"``, ``"ray://host:10001"``) or ``"local"`` for a
local instance. Every node needs scratch-gym and its editor installed (``scratch-gym install``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scratch_gym.runner.jobs import EnvSpec, Job
from scratch_gym.runner.pool import OnRecord


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
    Actor = ray.remote(num_cpus=actor_cpus)(_RayWorker)
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
