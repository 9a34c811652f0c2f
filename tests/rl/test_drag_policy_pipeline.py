"""examples/train_drag_policy.py end to end on a tiny generated pool (fast-path training, the
curve, the saved model, the held-out figures), its refusal of pools holding stored tasks, and a
saved policy acting in the real editor (the full run is a command, see the README)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_drag_policy.py"
KEYS = {"trained_fast_pass1_heldout", "heuristic_fast_pass1_heldout", "random_fast_pass1_heldout"}


@pytest.fixture(scope="module")
def generated_pool(tmp_path_factory) -> Path:
    from scratch_gym.single_drag.fast.pool import build_pool

    folder = tmp_path_factory.mktemp("generated-pool")
    build_pool(folder, n=2, seed=7, workers=1)
    return folder


@pytest.mark.slow
@pytest.mark.browser
def test_tiny_training_run_writes_model_curve_figures_and_snapshots(generated_pool, tmp_path):
    """The run's outputs; and the seed fixes the initial weights as well as the batches, so 3
    cloning updates give, bit for bit, the snapshot that the 6-update run (cloning until its
    policy-gradient phase at update 5) saved after its third."""
    import torch

    out = tmp_path / "run"
    pools = [sys.executable, str(EXAMPLE), "--train-pool", str(generated_pool),
             "--heldout-pool", str(generated_pool)]  # fmt: skip
    cmd = [*pools, "--updates", "6", "--eval-every", "3", "--out", str(out), "--snapshots"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert KEYS <= set(figures) and all(0.0 <= figures[k] <= 1.0 for k in KEYS)
    assert figures["train_pool"] == 2 and figures["updates"] == 6
    assert 0 < figures["checkpoint_mb"] <= 20
    assert (out / "policy.pt").stat().st_size > 0 and (out / "curve.png").stat().st_size > 0
    curve = json.loads((out / "curve.json").read_text())
    assert [c["updates"] for c in curve] == [0, 3, 6]
    assert sorted(p.name for p in (out / "snapshots").iterdir()) == ["policy-00003.pt"]
    short = tmp_path / "short"
    done = subprocess.run([*pools, "--updates", "3", "--rl-share", "0", "--out", str(short)],
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    snap = torch.load(out / "snapshots" / "policy-00003.pt")["state"]
    same = torch.load(short / "policy.pt")["state"]
    assert all(torch.equal(snap[k], same[k]) for k in snap)


def test_a_training_pool_with_stored_tasks_is_refused(drag_pool, tmp_path):
    """The stored tasks are a held-out split: a pool that holds them cannot train."""
    cmd = [sys.executable, str(EXAMPLE), "--train-pool", str(drag_pool), "--heldout-pool",
           str(drag_pool), "--updates", "2", "--out", str(tmp_path / "run")]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode != 0
    assert "holds tasks that are not generated (dc-05" in done.stderr
    assert not (tmp_path / "run" / "policy.pt").exists()


def test_saved_policy_acts_on_a_real_observation(drag_pool, tmp_path):
    import gymnasium as gym

    from scratch_gym.agents.single_drag import DragPolicyAgent
    from scratch_gym.single_drag.fast.pool import load_pool
    from scratch_gym.single_drag.rl_spaces import grid_cells
    from scratch_gym.single_drag.training.policy import DragPolicy, DragPolicyNet

    path = tmp_path / "p.pt"
    DragPolicy(DragPolicyNet()).save(path)
    policy = DragPolicy.load(path)
    pool = load_pool(drag_pool)
    env = gym.make("ScratchWorld-SingleDragElements-v0")
    try:
        obs, _ = env.reset(options={"task": pool.snapshots[0].task})
        action = policy(obs)[0]
        assert env.action_space.contains(np.asarray(action))
        # the grid action is the policy's pixel drag rounded to its 10 px cells; an agent that
        # answers pixels (the single-drag suite's) answers the unrounded drag
        start, end = policy.pixel_points(obs)
        assert grid_cells(np.concatenate([start, end])).reshape(-1).tolist() == action.tolist()
        agent = DragPolicyAgent(checkpoint=str(path))
        agent.bind(env)
        answer = agent.act(obs, {})
        assert answer == {"start": start[0].tolist(), "end": end[0].tolist()}
        _, reward, terminated, _, info = env.step(action)
        assert terminated and reward in (0.0, 1.0) and info["last_action_error"] == ""
    finally:
        env.close()
