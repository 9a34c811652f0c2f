"""The fast drag path: pools, the numpy drag model against real drags, the fast envs' spaces."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest

import scratch_gym  # noqa: F401  (registers the ids)
from scratch_gym.actions.primitive import DRAG_STEPS, DRAG_THRESHOLD_PX
from scratch_gym.envs.single_drag import SingleDragEnv
from scratch_gym.envs.single_drag_fast import SingleDragVectorEnv
from scratch_gym.single_drag import drag_model, tokens
from scratch_gym.single_drag.drag_model import simulate
from scratch_gym.single_drag.fast.calibration import draw_drags, replay
from scratch_gym.single_drag.fast.pool import load_pool
from scratch_gym.single_drag.fast.snapshot import EDITOR_VERSION, SnapshotError
from scratch_gym.single_drag.rl_spaces import grid_cells, grid_points
from tests.conftest import REPO_ROOT


def test_model_follows_the_drag_primitive_and_the_pinned_editor():
    assert drag_model.THRESHOLD_PX == DRAG_THRESHOLD_PX
    assert drag_model.PATH_STEPS == DRAG_STEPS - 1
    pin = json.loads((REPO_ROOT / "web/scratch-editor/package.json").read_text())
    assert pin["dependencies"]["@scratch/scratch-gui"] == EDITOR_VERSION


def test_model_agrees_with_real_drags_inside_and_near_the_regions(drag_pool):
    pool = load_pool(drag_pool)
    drags = draw_drags(pool, per_task=6, seed=3)
    assert {d.kind for d in drags} & {"near_end", "near_start", "near_both"}
    env = SingleDragEnv()
    try:
        result = replay(env, pool, drags)
    finally:
        env.close()
    figures = result.figures()
    assert figures["drags"] == len(drags) == 24
    assert figures["confusion"]["fast_success_real_success"] >= 6  # inside drags succeed
    assert figures["agreement_success"] >= 0.95, result.disagreements
    assert figures["agreement_grabbed"] >= 0.95, result.disagreements


def oracle_actions(pool, tasks: np.ndarray) -> np.ndarray:
    rows = []
    for t in tasks:
        snap = pool.snapshots[int(t)]
        anchor = np.array(snap.task.regions.anchor)
        pair = next(p for p, ok in zip(snap.pairs, snap.intended, strict=True) if ok)
        end = anchor + np.array([pair.dx, pair.dy])
        rows.append(np.concatenate([grid_cells(anchor), grid_cells(end)]))
    return np.array(rows)


def test_vector_env_steps_a_batch_and_resets_in_the_same_step(drag_pool):
    env = gym.make_vec(
        "ScratchWorld-SingleDragFast-v0",
        num_envs=64,
        vectorization_mode="vector_entry_point",
        pool=str(drag_pool),
    )
    assert isinstance(env, SingleDragVectorEnv)
    obs, info = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    tasks = info["task"]
    _, reward, terminated, truncated, step_info = env.step(oracle_actions(env.core.pool, tasks))
    assert reward.shape == (64,) and terminated.all() and not truncated.any()
    assert reward.mean() >= 0.9  # the oracle's drags, checked cell-rounded
    assert np.array_equal(step_info["task"], tasks)
    ids = env.core.pool.ids
    assert list(info["task_id"]) == [ids[t] for t in tasks]  # like the single env's info
    assert list(step_info["task_id"]) == list(info["task_id"])
    far = np.tile(np.array([[1, 1, 2, 2]]), (64, 1))  # the top bar: nothing to grab
    _, reward, _, _, _ = env.step(far)
    assert reward.sum() == 0.0


def test_fast_observations_equal_the_real_editors(drag_pool):
    pool = load_pool(drag_pool)
    fast = gym.make("ScratchWorld-SingleDragFast-v0", pool=pool, observation="elements")
    real = gym.make("ScratchWorld-SingleDragElements-v0")
    pixels = gym.make("ScratchWorld-SingleDragPixels-v0")
    try:
        for index in (0, 2):
            task = pool.snapshots[index].task
            f_obs, _ = fast.reset(options={"task": index})
            r_obs, _ = real.reset(options={"task": task})
            assert set(f_obs) == set(r_obs) == set(real.observation_space.spaces)
            assert np.array_equal(f_obs["instruction"], r_obs["instruction"])
            assert np.array_equal(f_obs["element_type"], r_obs["element_type"])
            differ = [
                (
                    k,
                    tokens.decode(f_obs["element_tokens"][k]),
                    tokens.decode(r_obs["element_tokens"][k]),
                )
                for k in range(len(f_obs["element_tokens"]))
                if not np.array_equal(f_obs["element_tokens"][k], r_obs["element_tokens"][k])
            ]
            assert not differ, differ
            assert np.abs(f_obs["element_box"] - r_obs["element_box"]).max() < 2e-3
            p_obs, _ = pixels.reset(options={"task": task, "setting": "gt_start"})
            shot = pool.pixels["gt_start"][index]
            assert p_obs["pixels"].shape == shot.shape
            assert np.abs(p_obs["pixels"].astype(int) - shot).mean() < 2.0
        words = tokens.decode(f_obs["instruction"])
        assert "<q>" in words  # the instruction, as token ids (baseline: the task's own text)
        assert np.array_equal(
            f_obs["instruction"], tokens.encode(task.instruction, tokens.INSTRUCTION_TOKENS)
        )
    finally:
        for env in (fast, real, pixels):
            env.close()


def test_no_privileged_data_in_rl_observations(drag_pool):
    for env_id, kwargs in (
        ("ScratchWorld-SingleDragFast-v0", {"pool": str(drag_pool)}),
        ("ScratchWorld-SingleDragFast-v0", {"pool": str(drag_pool), "observation": "elements"}),
    ):
        env = gym.make(env_id, **kwargs)
        obs, info = env.reset(seed=0)
        assert set(obs) <= {
            "pixels",
            "instruction",
            "element_box",
            "element_type",
            "element_tokens",
        }
        assert "regions" not in info and "anchor" not in info
        env.close()


def test_malformed_fast_action_is_reported_and_the_episode_ends(drag_pool):
    env = gym.make("ScratchWorld-SingleDragFast-v0", pool=str(drag_pool))
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(np.array([500, 5, 1, 1]))
    assert reward == 0.0 and terminated and "not in MultiDiscrete" in info["last_action_error"]
    env.reset(seed=0)
    with pytest.raises(ValueError, match="task index must be in"):
        env.reset(options={"task": 99})
    env.close()


def test_pool_errors_name_the_file(drag_pool, tmp_path):
    copy = tmp_path / "pool"
    shutil.copytree(drag_pool, copy)
    manifest = json.loads((copy / "pool.json").read_text())
    victim = copy / "snapshots" / f"{manifest['tasks'][0]}.npz"
    victim.write_bytes(b"not a zip")
    with pytest.raises(SnapshotError, match=str(victim)):
        load_pool(copy)
    victim.unlink()
    with pytest.raises(SnapshotError, match="no such snapshot file"):
        load_pool(copy)
    manifest["editor"] = "14.0.0"
    (copy / "pool.json").write_text(json.dumps(manifest))
    with pytest.raises(SnapshotError, match="rebuild the pool"):
        load_pool(copy)
    with pytest.raises(SnapshotError, match="no pool here"):
        load_pool(tmp_path / "missing")


def test_pool_build_cli_is_deterministic_and_resumes(drag_pool, tmp_path):
    out = tmp_path / "again"
    cmd = [sys.executable, "-m", "scratch_gym", "single-drag", "pool", "build", "--n", "2",
           "--seed", "7", "--stored", "dc-05", "si-01", "--out", str(out), "--json", "--quiet"]  # fmt: skip
    for src in (drag_pool / "snapshots").glob("*.npz"):  # resume: three of four are there
        if not src.name.startswith("gen-s7-00001"):
            (out / "snapshots").mkdir(parents=True, exist_ok=True)
            shutil.copy(src, out / "snapshots" / src.name)
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1])["tasks"] == 4
    a, b = load_pool(drag_pool), load_pool(out)
    assert a.ids == b.ids
    assert [s.task.to_json() for s in a.snapshots] == [s.task.to_json() for s in b.snapshots]
    assert np.array_equal(a.tables.labels, b.tables.labels)
    other = subprocess.run(cmd[:-4] + ["--seed", "8", "--out", str(out), "--quiet"],
                           capture_output=True, text=True, timeout=60)  # fmt: skip
    assert other.returncode != 0 and "holds a different pool" in other.stderr


def test_simulate_knows_revert_and_delete_areas(drag_pool):
    pool = load_pool(drag_pool)
    tasks = np.array([0, 0, 0])
    anchor = np.array(pool.snapshots[0].task.regions.anchor, np.float32)
    starts = np.tile(anchor, (3, 1))
    # on the stage; back on the palette (a sideways move: a steep one scrolls the palette)
    ends = np.array([[1000.0, 300.0], anchor + (60.0, 5.0), [500.0, 400.0]], np.float32)
    out = simulate(pool.tables, tasks, starts, ends)
    assert out.reverted.tolist() == [True, False, False]
    assert out.deleted.tolist() == [False, True, False]
    steep = simulate(pool.tables, tasks[:1], starts[:1], starts[:1] + (5.0, 80.0))
    assert steep.pick.tolist() == [0]  # a palette scroll: nothing dragged
    assert out.start_correct.all() and not out.success.any()


def test_grid_cells_round_trip():
    pts = np.array([[0.0, 0.0], [1279.0, 719.0], [355.0, 205.0]])
    start, _ = grid_points(np.concatenate([grid_cells(pts), grid_cells(pts)], 1))
    assert np.abs(start - pts).max() <= 5.0
