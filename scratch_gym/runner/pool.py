"""Running jobs: inline (one worker) or in N worker processes, each owning its environments.

Records stream back to the caller's ``on_record`` in the parent process (which alone writes the
results file). Workers are started with ``spawn`` (no browser state crosses a fork) and always
close their environments, so no Chromium outlives a run.
"""

from __future__ import annotations

import multiprocessing as mp
import queue
from collections.abc import Callable, Sequence
from typing import Any

from scratch_gym.runner.jobs import EnvSpec, Job
from scratch_gym.runner.worker import EpisodeWorker

OnRecord = Callable[[dict[str, Any]], None]
_STOP = None


def run_jobs(jobs: Sequence[Job], env_spec: EnvSpec, workers: int, on_record: OnRecord) -> None:
    if not jobs:
        return
    if workers <= 1:
        worker = EpisodeWorker(env_spec)
        try:
            for job in jobs:
                on_record(worker.run(job))
        finally:
            worker.close()
        return
    _run_processes(list(jobs), env_spec, min(workers, len(jobs)), on_record)


def _process_main(env_spec: EnvSpec, jobs: Any, results: Any) -> None:
    worker = EpisodeWorker(env_spec)
    try:
        while (job := jobs.get()) is not _STOP:
            results.put(worker.run(job))
    finally:
        worker.close()
        results.put(_STOP)


def _run_processes(jobs: list[Job], env_spec: EnvSpec, n: int, on_record: OnRecord) -> None:
    ctx = mp.get_context("spawn")
    job_q, result_q = ctx.Queue(), ctx.Queue()
    for job in jobs:
        job_q.put(job)
    for _ in range(n):
        job_q.put(_STOP)
    procs = [ctx.Process(target=_process_main, args=(env_spec, job_q, result_q)) for _ in range(n)]
    for p in procs:
        p.start()
    finished = 0
    try:
        while finished < n:
            try:
                item = result_q.get(timeout=5)
            except queue.Empty:
                if not any(p.is_alive() for p in procs):
                    break
                continue
            if item is _STOP:
                finished += 1
            else:
                on_record(item)
    finally:
        for p in procs:
            p.join(timeout=30)
            if p.is_alive():
                p.terminate()
                p.join()
