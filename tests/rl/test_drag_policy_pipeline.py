"""examples/train_drag_policy.py end to end on a tiny pool: fast-path training, the curve, the
saved model and its evaluation in the real editor (the full run is a command, see the README)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.single_drag.scratchworld_checkout import checkout

pytest.importorskip("torch")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_drag_policy.py"
KEYS = {"real_pass1_stored", "real_pass1_heldout", "fast_pass1_heldout", "random_pass1_heldout"}


def test_tiny_training_run_writes_model_curve_and_real_figures(drag_pool, tmp_path):
    out = tmp_path / "run"
    sw = checkout(tmp_path / "scratchworld")
    cmd = [sys.executable, str(EXAMPLE), "--train-pool", str(drag_pool),
           "--heldout-pool", str(drag_pool), "--minutes", "0.15", "--eval-every", "3",
           "--real-heldout", "1", "--settings", "baseline", "--workers", "1",
           "--train-on-stored", "--scratchworld", str(sw), "--out", str(out)]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    sw_keys = {"real_pass1_scratchworld", "heuristic_real_pass1_scratchworld"}
    assert KEYS | sw_keys <= set(figures)
    # the pool's two stored tasks and one held-out task; the checkout's task for both agents
    assert figures["real_episodes"] == 5 and figures["scratchworld_tasks"] == 1
    assert all(0.0 <= figures[k] <= 1.0 for k in KEYS | sw_keys)
    assert (out / "policy.pt").stat().st_size > 0 and (out / "curve.png").stat().st_size > 0
    curve = json.loads((out / "curve.json").read_text())
    assert len(curve) >= 2 and curve[-1]["updates"] > 0


def test_an_unknown_scratchworld_task_is_named_before_training(tmp_path):
    sw = checkout(tmp_path / "scratchworld")
    cmd = [sys.executable, str(EXAMPLE), "--scratchworld", str(sw), "--scratchworld-tasks",
           "T9_999", "--out", str(tmp_path / "run")]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "no ScratchWorld single-drag task(s) T9_999" in done.stderr
    assert not (tmp_path / "run" / "pool-train").exists()  # nothing was captured or trained


def test_saved_policy_acts_on_a_real_observation(drag_pool, tmp_path):
    import gymnasium as gym

    from scratch_gym.single_drag.policy import DragPolicy, DragPolicyNet
    from scratch_gym.single_drag.task_pool import load_pool

    path = tmp_path / "p.pt"
    DragPolicy(DragPolicyNet()).save(path)
    policy = DragPolicy.load(path)
    pool = load_pool(drag_pool)
    env = gym.make("ScratchWorld-SingleDragElements-v0")
    try:
        obs, _ = env.reset(options={"task": pool.snapshots[0].task})
        action = policy(obs)[0]
        assert env.action_space.contains(np.asarray(action))
        _, reward, terminated, _, info = env.step(action)
        assert terminated and reward in (0.0, 1.0) and info["last_action_error"] == ""
    finally:
        env.close()
