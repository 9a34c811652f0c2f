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
from scratch_gym.single_drag.fast.snapshot import EDITOR_VERSION, Snapshot, SnapshotError
from scratch_gym.single_drag.generation.generator import VERSION as GENERATOR_VERSION
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
    older = copy / "snapshots" / f"{manifest['tasks'][1]}.npz"  # pairs of an earlier model
    with np.load(older) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(bytes(arrays["meta"]).decode())
    meta.pop("model")
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
    np.savez_compressed(older, **arrays)
    with pytest.raises(SnapshotError, match=f"{older}: its drag pairs come from drag model v1"):
        Snapshot.load(older)
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
    # a pool of an older generator (other tasks for the same seed) is not resumed
    manifest = json.loads((out / "pool.json").read_text())
    assert manifest["generator"] == GENERATOR_VERSION
    (out / "pool.json").write_text(json.dumps({**manifest, "generator": GENERATOR_VERSION - 1}))
    older = subprocess.run(cmd[:-2] + ["--quiet"], capture_output=True, text=True, timeout=60)
    assert older.returncode != 0, older.stdout
    assert f"generator version {GENERATOR_VERSION - 1}" in older.stderr, older.stderr
    # ... unless that version is asked for (older versions stay drawable)
    asked = subprocess.run(cmd[:-2] + ["--quiet", "--generator-version", str(GENERATOR_VERSION - 1)],
                           capture_output=True, text=True, timeout=60)  # fmt: skip
    assert asked.returncode == 0, asked.stderr
    unknown = subprocess.run(cmd[:-2] + ["--generator-version", "4"],
                             capture_output=True, text=True, timeout=60)  # fmt: skip
    assert unknown.returncode == 2 and "choose from 5, 6, 7" in unknown.stderr, unknown.stderr


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


def test_a_forever_dropped_mid_stack_wraps_the_blocks_below_in_both_paths(drag_env):
    """scratch-blocks lets a block without a next connection (forever) into the middle of a
    stack when the blocks it displaces fit its empty mouth; the model offers that connection
    (it refused it, so such tasks had no successful drag on the fast path) and a drag along
    it connects in the real editor too."""
    from scratch_gym.single_drag import editor_drag
    from scratch_gym.single_drag.drag_model import stack_tables
    from scratch_gym.single_drag.feasible.capture import capture_drag
    from scratch_gym.single_drag.tasks.task import task_from_json

    spec = json.loads(
        (REPO_ROOT / "tests/fixtures/single_drag/forever-wraps-mid-stack.json").read_text()
    )
    task = task_from_json(spec)
    drag_env.reset(options={"task": task})
    page = drag_env.page
    capture = capture_drag(page, task)
    intended = [p for p, ok in zip(capture.pairs, capture.intended, strict=True) if ok]
    assert [p.formed for p in intended] == ["below:s0b3"]  # s0b3 holds s0b8 below it
    start = np.array(task.regions.anchor, np.float32)
    end = start + np.array([intended[0].dx, intended[0].dy], np.float32)
    fast = simulate(stack_tables([capture]), np.array([0]), start[None], end[None])
    assert fast.success[0]
    editor_drag.perform(page, tuple(start), tuple(end))
    blocks = page.bridge.vm_blocks()
    assert editor_drag.outcome(page, task, blocks).success
    forever = next(b for b in blocks.values() if b["opcode"] == "control_forever")
    assert blocks["s0b3"]["next"] == forever["id"]
    assert forever["inputs"]["SUBSTACK"]["block"] == "s0b8"  # the displaced blocks, wrapped


def test_an_insertion_marker_moves_the_blocks_below_it_for_the_next_search():
    """A drag traced in the real editor (a canvas stack dropped by a script of six blocks at
    zoom 0.53): the candidate below the first block shows a marker 25.4 px high, the later
    blocks move down by it, and the final search finds the block inside the C-block (s0b6)
    closer than the C-block's own next (s0b5), which is closer where they were drawn."""
    from scratch_gym.single_drag.drag_model import Pair, stack_tables
    from scratch_gym.single_drag.feasible.capture import DragCapture

    labels = np.zeros((360, 640), np.uint8)
    labels[85, 245] = 1  # the grabbed stack's top block at (490, 170)
    pairs = [
        Pair(1, -84.3, 335.8, "below:s0b1", y=400.0, stack=0, marker=True),
        Pair(1, -84.3, 479.9, "below:s0b5", y=544.1, stack=0, marker=True),
        Pair(1, -75.8, 463.0, "below:s0b6", y=527.2, stack=0, marker=True),
    ]

    def outcome(marker_px: float) -> str:
        picks = [{"opcode": "motion_movesteps", "flyout": False, "source": True, "id": "s4b1"}]
        picks[0]["marker_px"] = marker_px
        capture = DragCapture(
            task=None,  # type: ignore[arg-type]
            pick_step=2,
            labels=labels,
            picks=picks,
            pairs=pairs,
            intended=[False, False, True],
            config={
                "snap_radius": 48,
                "connecting_snap_radius": 68,
                "current_connection_preference": 20,
                "drag_radius": 3,
                "flyout_drag_radius": 10,
                "drag_angle_range": 70,
            },
            scale=0.53,
            workspace=(0.0, 0.0, 1280.0, 720.0),
            delete_right=0.0,
        )
        out = simulate(
            stack_tables([capture]),
            np.array([0]),
            np.array([[490.0, 170.0]], np.float32),
            np.array([[385.2, 650.1]], np.float32),
        )
        return pairs[int(out.pair[0])].formed if out.pair[0] >= 0 else ""

    assert outcome(25.44) == "below:s0b6"  # what the real editor connected
    assert outcome(0.0) == "below:s0b5"  # without the marker's move: the model before


def test_marker_heights_count_filled_mouths_empty_and_rescale_the_palette():
    """The marker copies the dragged block without its inputs' blocks: a canvas if-block with
    one 48-unit block in its mouth (zoom 0.5) makes a marker 12 px shorter than the block (its
    mouth at the empty 24 units); a palette block is rescaled from the palette's zoom."""
    from scratch_gym.single_drag.drag_model import marker_heights

    def conn(kind, y, input=None, target=None):
        return {"type": kind, "x": 0.0, "y": y, "input": input, "target": target}

    if_block = {
        "id": "c",
        "connections": [
            conn("previous", 100.0),
            conn("next", 124.0, "SUBSTACK", "m"),
            conn("next", 164.0),
        ],
    }
    inner = {"id": "m", "connections": [conn("previous", 124.0), conn("next", 148.0)]}
    palette = {"id": "f", "connections": [conn("previous", 10.0), conn("next", 42.4)]}
    geometry = {
        "scale": 0.5,
        "flyout_scale": 0.675,
        "canvas": [if_block, inner],
        "flyout": [palette],
    }
    picks = [{"id": "c", "flyout": False}, {"id": "f", "flyout": True}]
    canvas_h, palette_h = marker_heights(geometry, picks)
    assert canvas_h == pytest.approx(64.0 - (24.0 - 12.0))
    assert palette_h == pytest.approx(32.4 * 0.5 / 0.675)


def test_a_built_pools_regions_agree_with_its_captures(drag_pool):
    """The oracle's drag (anchor to the end region's most interior point) connects on the fast
    path for every pooled task: the regions and the capture saw the same screen."""
    from scratch_gym.single_drag.fast.pool import oracle_connects

    pool = load_pool(drag_pool)
    assert [s.task.id for s in pool.snapshots if not oracle_connects(s)] == []
