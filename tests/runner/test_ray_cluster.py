"""`scratch-gym eval --ray` against a real two-node Ray cluster on loopback (`ray start --head`
plus a second `ray start --address` node), with a task from the user's own folder."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scratch_gym.paths import tasks_dir
from tests.runner.ray_cluster import ENV, loopback_cluster

SCRATCH_GYM = str(Path(sys.executable).with_name("scratch-gym"))


def own_task(root: Path) -> None:
    """say-hello copied into the user's folder as `my-hello`."""
    folder = root / "create" / "my-hello"
    shutil.copytree(tasks_dir() / "create" / "say-hello", folder)
    toml = folder / "task.toml"
    toml.write_text(toml.read_text().replace('id = "say-hello"', 'id = "my-hello"'))


@pytest.mark.slow
@pytest.mark.browser
def test_eval_spreads_episodes_over_a_two_node_cluster(tmp_path):
    own_task(tmp_path / "mine")
    results = tmp_path / "ray.jsonl"
    env = {k: v for k, v in os.environ.items() if k != "SCRATCH_GYM_TASKS"}
    env.update(ENV)
    with loopback_cluster(cpus_per_node=1) as address:
        done = subprocess.run(
            [
                SCRATCH_GYM,
                "eval",
                "--ray",
                address,
                "--agent",
                "random",
                "--tasks",
                "say-hello",
                "my-hello",
                "--tasks-dir",
                str(tmp_path / "mine"),
                "--workers",
                "2",
                "--max-steps",
                "3",
                "--results",
                str(results),
                "--no-progress",
                "--json",
            ],
            capture_output=True,
            text=True,
            timeout=600,
            env=env,
        )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["episodes"] == 2
    records = [json.loads(line) for line in results.read_text().splitlines()]
    assert sorted(r["task"] for r in records) == ["my-hello", "say-hello"]
    assert all(r["status"] != "infrastructure_error" and r["steps"] >= 1 for r in records), records
    # one actor per 1-CPU node: two different processes, neither of them this one
    hosts = {r["host"] for r in records}
    assert len(hosts) == 2 and all(h.split(":")[1] != str(os.getpid()) for h in hosts), hosts
