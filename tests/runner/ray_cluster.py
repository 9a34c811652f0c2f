"""A real Ray cluster on loopback for tests: a head node and a second node, both started with
``ray start`` on 127.0.0.1 in their own temp folder, and stopped (by process id, only the
processes of this cluster) even when the test fails."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psutil

RAY = str(Path(sys.executable).with_name("ray"))
# The raylet waits a fixed 15 s for its dashboard agent to report its ports; on a busy 2-core
# machine the agent's imports can take longer, so a failed start is retried (the second one finds
# the modules in the page cache).
START_ATTEMPTS = 3
# Loopback only: no token authentication (Ray turns it on when ~/.ray/auth_token exists, which a
# local ray.init() writes, and a joining node or driver would then need the token too).
ENV = {"RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cluster_processes(temp_dir: str) -> list[psutil.Process]:
    """The processes of the cluster: those whose command line names ``temp_dir`` or that hold a
    file under it open (Ray renames its agents and workers, e.g. ``ray::DashboardAgent``, but
    they keep their logs open), and their children."""
    found: dict[int, psutil.Process] = {}
    for proc in psutil.process_iter(["cmdline"]):
        try:
            if any(temp_dir in part for part in proc.info["cmdline"] or ()) or any(
                f.path.startswith(temp_dir) for f in proc.open_files()
            ):
                found[proc.pid] = proc
                for child in proc.children(recursive=True):
                    found[child.pid] = child
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return list(found.values())


def stop_cluster(temp_dir: str) -> None:
    procs = cluster_processes(temp_dir)
    for proc in procs:
        try:
            proc.terminate()
        except psutil.NoSuchProcess:
            pass
    _gone, alive = psutil.wait_procs(procs, timeout=10)
    for proc in alive:
        try:
            proc.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(alive, timeout=5)


def _ray_start(args: list[str], temp_dir: str, env: dict[str, str]) -> None:
    last = ""
    for _attempt in range(START_ATTEMPTS):
        done = subprocess.run(
            [RAY, "start", *args, "--node-ip-address=127.0.0.1", "--disable-usage-stats"],
            capture_output=True,
            text=True,
            timeout=180,
            env=env,
        )
        if done.returncode == 0:
            return
        last = (done.stdout + done.stderr)[-2000:] + _raylet_errors(temp_dir)
        if "--head" in args:
            stop_cluster(temp_dir)
    raise RuntimeError(f"ray start {' '.join(args)} failed {START_ATTEMPTS} times:\n{last}")


def _raylet_errors(temp_dir: str) -> str:
    """The fatal lines of the cluster's raylet logs (why a node did not start)."""
    lines = []
    for log in Path(temp_dir).glob("session_*/logs/raylet*.out"):
        lines += [ln for ln in log.read_text(errors="replace").splitlines() if " C " in ln[:40]]
    return "\nraylet: " + "\nraylet: ".join(lines[-3:]) if lines else ""


@contextmanager
def loopback_cluster(cpus_per_node: int = 1) -> Iterator[str]:
    """Start a two-node cluster on 127.0.0.1; yields its address (``127.0.0.1:PORT``)."""
    import os

    temp_dir = tempfile.mkdtemp(prefix="sgray-", dir="/tmp")  # short: Ray's socket paths
    env = {**os.environ, **ENV}
    address = f"127.0.0.1:{free_port()}"
    try:
        head = ["--head", f"--port={address.split(':')[1]}", f"--temp-dir={temp_dir}"]
        _ray_start(
            [*head, f"--num-cpus={cpus_per_node}", "--include-dashboard=false"], temp_dir, env
        )
        node = [f"--address={address}", f"--temp-dir={temp_dir}"]
        _ray_start([*node, f"--num-cpus={cpus_per_node}"], temp_dir, env)
        _wait_for_nodes(address, 2, env)
        yield address
    finally:
        stop_cluster(temp_dir)
        shutil.rmtree(temp_dir, ignore_errors=True)


def _wait_for_nodes(address: str, count: int, env: dict[str, str], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done = subprocess.run(
            [RAY, "status", f"--address={address}"], capture_output=True, text=True, env=env
        )
        if done.stdout.count("node_") >= count:
            return
        time.sleep(2)
    raise RuntimeError(f"the Ray cluster at {address} did not reach {count} nodes:\n{done.stdout}")
