"""A worker process killed mid-episode: the run goes on, the episode is retried in a new worker,
every episode has exactly one record, and the killed worker leaves no Chromium behind."""

from __future__ import annotations

import json
import os
import signal
import threading
import time

import pytest

from scratch_gym.editor.browser import _ppid, _processes
from scratch_gym.runner import AgentSpec, run_suite
from scratch_gym.runner.jobs import EnvSpec

TASK = "say-hello"
MARKER = "--scratch-gym-session="


def _workers() -> list[int]:
    me = os.getpid()
    return [pid for pid, cmd in _processes() if "multiprocessing" in cmd and _ppid(pid) == me]


def _has_browser(worker: int) -> bool:
    for pid, cmd in _processes():
        if MARKER not in cmd or "--type=" in cmd:
            continue
        parent = _ppid(pid)
        while parent not in (None, 0, 1):
            if parent == worker:
                return True
            parent = _ppid(parent)
    return False


def _chromium_sessions() -> set[str]:
    return {
        cmd.split(MARKER)[1].split()[0]
        for _pid, cmd in _processes()
        if MARKER in cmd and "--type=" not in cmd
    }


@pytest.mark.slow
@pytest.mark.browser
def test_killed_worker_episode_is_retried_and_nothing_is_lost(tmp_path):
    before = _chromium_sessions()
    killed: list[int] = []

    def killer() -> None:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and not killed:
            for worker in _workers():
                if _has_browser(worker):  # its first episode is under way
                    time.sleep(1.0)
                    os.kill(worker, signal.SIGKILL)
                    killed.append(worker)
                    return
            time.sleep(0.2)

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    results = tmp_path / "killed.jsonl"
    records = run_suite(
        AgentSpec("random", kwargs={"seed": 5}),
        task_ids=[TASK],
        runs=3,
        workers=2,
        results=results,
        env=EnvSpec(max_steps=8),
        progress=False,
    )
    thread.join(timeout=5)
    assert killed, "no worker was killed: the test did not exercise anything"
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    assert sorted(r["key"] for r in lines) == sorted({r["key"] for r in records}), lines
    assert len(lines) == 3  # one line per episode: none lost, none written twice
    assert all(r["status"] in ("success", "failure") for r in records), records
    assert [r.get("worker_deaths", 0) for r in records].count(1) == 1, records
    time.sleep(3)  # the dead worker's Playwright driver closes its browser when its pipe breaks
    assert _chromium_sessions() <= before


def _alive(pid: int) -> bool:
    """A running process (an exited one left unreaped, a zombie, does not count)."""
    try:
        stat = open(f"/proc/{pid}/stat").read()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.slow
@pytest.mark.browser
def test_killing_the_run_stops_its_workers_and_their_browsers(tmp_path):
    """The run's own process is killed (SIGKILL: none of its clean-up runs). Its workers are told
    by the kernel, close their environments and exit: no worker and no Chromium outlives it.
    (Left alone, they would go on through the 60 queued episodes, several minutes.)"""
    import subprocess
    import sys

    before = _chromium_sessions()
    command = "eval --agent random --tasks say-hello fix-bounce --runs 30 --workers 2"
    results = ["--results", str(tmp_path / "r.jsonl")]
    run = subprocess.Popen(
        [sys.executable, "-m", "scratch_gym", *command.split(), *results],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 240
        workers: list[int] = []
        while time.monotonic() < deadline:
            workers = [p for p, cmd in _processes() if "spawn_main" in cmd and _ppid(p) == run.pid]
            if len(workers) == 2 and all(_has_browser(w) for w in workers):
                break
            time.sleep(0.5)
        assert len(workers) == 2 and all(_has_browser(w) for w in workers), "no workers started"
        run.kill()
        run.wait()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            alive = [w for w in workers if _alive(w)]
            if not alive and _chromium_sessions() <= before:
                break
            time.sleep(0.5)
        assert not [w for w in workers if _alive(w)], "a worker outlived the run"
        assert _chromium_sessions() <= before, "a worker's Chromium outlived the run"
    finally:
        if run.poll() is None:
            run.kill()
