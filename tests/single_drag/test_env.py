"""ScratchWorld-SingleDrag-v0 and -Pixels-v0 in the real editor."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from stable_baselines3.common.env_checker import check_env as sb3_check_env

import scratch_gym  # noqa: F401  (registers the ids)
from scratch_gym.agents.single_drag import DragOracleAgent
from scratch_gym.single_drag import tokens
from scratch_gym.single_drag.tasks.instructions import MARK_COLOUR


@pytest.mark.browser
def test_pixels_variant_passes_the_sb3_checker():
    """(Gymnasium's check_env runs on every registered id in tests/env/test_primitive_env.py.)"""
    env = gym.make("ScratchWorld-SingleDragPixels-v0", tasks=["si-01"])
    try:
        sb3_check_env(env.unwrapped, warn=False)
        obs, _ = env.reset(seed=3)
        assert obs["pixels"].shape == (72, 128, 3)
        assert obs["instruction"].shape == (tokens.INSTRUCTION_TOKENS,)
        assert obs["instruction"].max() > 0
    finally:
        env.close()


def test_oracle_drag_is_rewarded_and_a_wrong_drop_is_not(drag_env):
    obs, info = drag_env.reset(options={"task": "dc-05"})
    oracle = DragOracleAgent()
    oracle.bind(drag_env)  # the regions come through the env's privileged channel
    oracle.reset(drag_env.task)
    action = oracle.act(obs, info)
    start = action["start"]
    _, reward, terminated, truncated, info = drag_env.step(action)
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert info["start_correct"] and info["end_correct"]
    assert info["start_error_px"] == 0.0 and info["end_error_px"] == 0.0

    drag_env.reset(options={"task": "dc-05"})
    _, reward, _, _, info = drag_env.step({"start": start, "end": (700.0, 650.0)})
    assert reward == 0.0
    assert info["start_correct"] and not info["end_correct"]
    assert info["end_error_px"] > 50


def test_gt_start_setting_marks_and_states_the_start(drag_env):
    obs, _ = drag_env.reset(options={"task": "dc-07", "setting": "gt_start"})
    x, y = drag_env.task.regions.anchor
    assert f"({x:.0f}, {y:.0f})" in obs["instruction"]
    ring = obs["screenshot"][int(y) - 9 : int(y) + 10, int(x) - 9 : int(x) + 10]
    assert np.any(np.all(ring == np.array(MARK_COLOUR, np.uint8), axis=-1))
    obs, _ = drag_env.reset(options={"task": "dc-07", "setting": "knowledge"})
    assert "Rules for dragging blocks" in obs["instruction"]


def test_bad_action_is_reported_and_ends_the_episode(drag_env):
    drag_env.reset(options={"task": "dc-01"})
    _, reward, terminated, _, info = drag_env.step({"start": [1, 2]})
    assert reward == 0.0 and terminated
    assert "end" in info["last_action_error"]


def test_a_pan_past_the_scroll_limits_shows_the_same_screen_whatever_came_before(drag_env):
    """A generated task panned past Blockly's scroll limits (forced translate): measured before
    the fix, a reset after the same task without the pan (as the generator fits a view) left
    its canvas 70 px higher than a reset after another task."""
    import dataclasses
    import json

    from scratch_gym.single_drag.tasks.task import task_from_json
    from tests.conftest import REPO_ROOT

    path = REPO_ROOT / "tests/fixtures/single_drag/pan-past-the-scroll-limits.json"
    task = task_from_json(json.loads(path.read_text()))
    unpanned = dataclasses.replace(task, view=dataclasses.replace(task.view, translate=None))

    def top_of_s4b1() -> float:
        geometry = drag_env.page.bridge.single_drag_geometry()
        return next(b["box"][1] for b in geometry["canvas"] if b["id"] == "s4b1")

    drag_env.reset(options={"task": unpanned})
    _, info = drag_env.reset(options={"task": task})
    assert info["view"]["forced"]  # the pan lies past the limits
    after_unpanned = top_of_s4b1()
    drag_env.reset()
    drag_env.reset(options={"task": task})
    after_another = top_of_s4b1()
    assert after_unpanned == pytest.approx(after_another, abs=0.5)
    assert drag_env.page.bridge.view_state()["scroll_y"] == pytest.approx(info["view"]["scroll_y"])
