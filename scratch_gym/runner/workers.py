"""Running jobs: inline (one worker) or in N worker processes, each owning its environments.

Records stream back to the caller's ``on_record`` in the parent process (which alone writes the
results file). Workers are started with ``spawn`` (no browser state crosses a fork) and always
close their environments, so no Chromium outlives a run, even one whose process was killed (on
Linux the kernel then tells the workers to stop, see :func:`_die_with_parent`). A worker that
dies mid-episode is replaced and its episode retried once (see :class:`_Processes`).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import queue
import signal
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from scratch_gym.records.status import INFRASTRUCTURE_ERROR
from scratch_gym.runner.jobs import Job
from scratch_gym.runner.worker import EpisodeWorker, job_record

OnRecord = Callable[[dict[str, Any]], None]
_STOP = None


def run_jobs(
    jobs: Sequence[Job],
    env_spec: Any,
    workers: int,
    on_record: OnRecord,
    worker_factory: Callable[[Any], Any] = EpisodeWorker,
) -> None:
    """Run ``jobs`` on ``workers`` workers made by ``worker_factory(env_spec)`` (picklable: a
    top-level class with ``run(job) -> record`` and ``close()``; default :class:`EpisodeWorker`)."""
    if not jobs:
        return
    if workers <= 1:
        worker = worker_factory(env_spec)
        try:
            for job in jobs:
                on_record(worker.run(job))
        finally:
            worker.close()
        return
    _run_processes(list(jobs), env_spec, min(workers, len(jobs)), on_record, worker_factory)


def _die_with_parent() -> None:
    """Stop this worker when the run's process dies, however it died (a SIGKILL runs none of its
    clean-up): on Linux the kernel sends SIGTERM then (``PR_SET_PDEATHSIG``), and SIGTERM exits
    through the worker's ``finally``, which closes its browser."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    pr_set_pdeathsig = 1
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, int(signal.SIGTERM))
    parent = mp.parent_process()
    if parent is not None and os.getppid() != parent.pid:  # it died before the request
        sys.exit(128 + signal.SIGTERM)


def _process_main(
    wid: int, env_spec: Any, jobs: Any, results: Any, first: Job | None, factory: Any
) -> None:
    _die_with_parent()
    worker = factory(env_spec)
    try:
        job = first if first is not None else jobs.get()
        while job is not _STOP:
            results.put(("start", wid, job.key))
            results.put(("record", wid, worker.run(job)))
            job = jobs.get()
    finally:
        worker.close()
        results.put(("stop", wid, None))


class _Processes:
    """The worker processes of one run. A worker that dies (killed, out of memory) is replaced;
    the episode it was running is retried once in the replacement, and recorded as an
    infrastructure error if that worker dies too: never as an agent failure, never lost."""

    def __init__(self, env_spec: Any, job_q: Any, result_q: Any, factory: Any) -> None:
        self.ctx = mp.get_context("spawn")
        self.factory = factory
        self.env_spec, self.job_q, self.result_q = env_spec, job_q, result_q
        self.procs: dict[int, Any] = {}
        self.running: dict[int, str] = {}  # worker -> key of the job it runs
        self.deaths: dict[str, int] = {}  # job key -> workers that died running it
        self.started = 0
        self.checked = time.monotonic()

    def start(self, first: Job | None = None) -> None:
        self.started += 1
        wid = self.started
        args = (wid, self.env_spec, self.job_q, self.result_q, first, self.factory)
        proc = self.ctx.Process(target=_process_main, args=args, daemon=True)
        proc.start()
        self.procs[wid] = proc

    def bury_dead(self, by_key: dict[str, Job], on_record: OnRecord) -> None:
        self.checked = time.monotonic()
        for wid, proc in list(self.procs.items()):
            if proc.is_alive() or proc.exitcode == 0:  # a clean exit's stop message is on its way
                continue
            proc.join()
            del self.procs[wid]
            key = self.running.pop(wid, None)
            if key is None:  # died between episodes: its replacement takes a stop of its own
                self.job_q.put(_STOP)
                self.start()
                continue
            self.deaths[key] = self.deaths.get(key, 0) + 1
            if self.deaths[key] <= 1:
                self.start(first=by_key[key])
                continue
            error = f"the worker process died running this episode (exit code {proc.exitcode})"
            outcome = {"status": INFRASTRUCTURE_ERROR, "error": error, "worker_deaths": 2}
            on_record(job_record(by_key[key], outcome, time.time(), host=f"worker:{proc.pid}"))
            self.start()

    def stop(self) -> None:
        for proc in self.procs.values():
            proc.join(timeout=30)
            if proc.is_alive():
                proc.terminate()
                proc.join()


def _run_processes(
    jobs: list[Job], env_spec: Any, n: int, on_record: OnRecord, factory: Any
) -> None:
    ctx = mp.get_context("spawn")
    job_q, result_q = ctx.Queue(), ctx.Queue()
    for job in jobs:
        job_q.put(job)
    for _ in range(n):
        job_q.put(_STOP)
    by_key = {job.key: job for job in jobs}
    pending = set(by_key)

    def record(item: dict[str, Any]) -> None:
        pending.discard(item["key"])
        on_record(item)

    processes = _Processes(env_spec, job_q, result_q, factory)
    for _ in range(n):
        processes.start()
    try:
        while processes.procs:
            if time.monotonic() - processes.checked > 10:  # busy queues: look for deaths anyway
                processes.bury_dead(by_key, record)
            try:
                kind, wid, item = result_q.get(timeout=2)
            except queue.Empty:  # every message sent is read: a worker gone silent is dead
                processes.bury_dead(by_key, record)
                continue
            if kind == "start":
                processes.running[wid] = item
            elif kind == "record":
                processes.running.pop(wid, None)
                if item["key"] in processes.deaths:
                    item["worker_deaths"] = processes.deaths[item["key"]]
                record(item)
            else:  # stop
                proc = processes.procs.pop(wid, None)
                if proc is not None:
                    proc.join(timeout=30)
    finally:
        processes.stop()
    for key in sorted(pending):  # a worker died before its start message got out
        error = "a worker process died before reporting this episode"
        record(job_record(by_key[key], {"status": INFRASTRUCTURE_ERROR, "error": error}, 0.0))
