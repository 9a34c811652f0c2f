"""ScratchWorld-Primitive-v0 and the pixels variant, in the real editor."""

from __future__ import annotations

import json
import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.utils.passive_env_checker import env_render_passive_checker

import scratch_gym
from scratch_gym.actions.primitive import ACTION_NAMES
from tests.helpers import canvas_box, flyout_box, grab, non_shadow, project_with_script, vm_blocks


@pytest.fixture(scope="module")
def env():
    env = gym.make("ScratchWorld-Primitive-v0", render_mode="rgb_array")
    yield env
    env.close()


@pytest.mark.browser
@pytest.mark.parametrize("env_id", sorted(scratch_gym.ENV_IDS))
def test_gymnasium_check_env_passes(env_id, request):
    """Gymnasium's checker, its render check run on this env: with ``skip_render_check=False``
    it would make a second env of the id for each render mode (another editor page, ~8 s), and
    ``rgb_array`` is the only mode."""
    kwargs = {"pool": str(request.getfixturevalue("drag_pool"))} if "Fast" in env_id else {}
    env = gym.make(env_id, render_mode="rgb_array", **kwargs)
    try:
        check_env(env.unwrapped, skip_render_check=True)
        assert env.unwrapped.metadata["render_modes"] == ["rgb_array"]
        env.reset(seed=0)
        frame = env_render_passive_checker(env.unwrapped)
        assert frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8
    finally:
        env.close()


@pytest.mark.browser
def test_stable_baselines3_check_env_passes_for_pixels():
    sb3_env_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    env = gym.make("ScratchWorld-PrimitivePixels-v0")
    try:
        sb3_env_checker.check_env(env.unwrapped, warn=True)
    finally:
        env.close()


def test_make_without_import_via_module_prefix():
    code = (
        "import gymnasium as gym\n"
        "env = gym.make('scratch_gym:ScratchWorld-Primitive-v0')\n"
        "print(type(env.unwrapped).__name__)\n"
        "env.close()\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ScratchEnv"


def test_spaces_accept_any_unicode_and_empty_text(env):
    obs_space = env.observation_space
    assert obs_space["instruction"].contains("")
    assert obs_space["instruction"].contains("Fais bouger le chat 🐱 — 猫")
    assert env.action_space["text"].contains("")


@pytest.mark.browser
def test_empty_project_starts_with_sprite1_and_no_task(env):
    obs, info = env.reset(seed=1)
    assert obs["screenshot"].shape == (720, 1280, 3) and obs["screenshot"].dtype == np.uint8
    assert obs["instruction"] == "" and obs["last_action_error"] == ""
    assert info["editing_target"] == "Sprite1" and info["blocks"] == 0
    project = env.unwrapped.page.project_json()
    assert [t["name"] for t in project["targets"]] == ["Stage", "Sprite1"]
    assert project["targets"][1]["costumes"][0]["name"] == "costume1"


@pytest.mark.browser
def test_drags_build_move_then_turn_under_it(env):
    env.reset(seed=0)
    page = env.unwrapped.page
    move = flyout_box(page, "motion_movesteps")
    obs, reward, terminated, truncated, info = env.step(
        {"action_type": "drag", "start": grab(move), "end": [450, 220]}
    )
    assert reward == 0.0 and not terminated and not truncated and info["last_action_error"] == ""
    blocks = vm_blocks(page)
    [(move_id, move_block)] = non_shadow(blocks, "motion_movesteps")
    assert move_block["topLevel"] and info["blocks"] == 1

    turn = flyout_box(page, "motion_turnright")
    placed = canvas_box(page, "motion_movesteps")
    start = grab(turn)
    end = [placed["x"] + 8.0, placed["y"] + placed["h"] + (start[1] - turn["y"]) - 6]
    obs, reward, terminated, truncated, info = env.step(
        {"action_type": "drag", "start": start, "end": end}
    )
    blocks = vm_blocks(page)
    [(turn_id, turn_block)] = non_shadow(blocks, "motion_turnright")
    assert blocks[move_id]["next"] == turn_id
    assert turn_block["parent"] == move_id
    assert info["scripts"] == 1 and info["blocks"] == 2
    assert info["executed_action"]["type"] == "drag" and info["step_time_ms"] > 0
    phases = info["step_phases_ms"]  # where the step's time went
    assert list(phases) == ["act", "settle", "evaluate", "observe", "info"]
    assert min(phases.values()) >= 0 and phases["act"] > 0 and phases["observe"] > 0
    assert phases["settle"] == pytest.approx(
        min(info["settle_ms"], phases["act"] + phases["settle"])
    )
    assert sum(phases.values()) == pytest.approx(info["step_time_ms"], abs=0.01)


@pytest.mark.browser
def test_reset_restores_the_project_exactly_and_screens_match(env, tmp_path):
    path = tmp_path / "project.json"
    path.write_text(json.dumps(project_with_script()))
    obs1, _ = env.reset(options={"project": str(path)})
    page = env.unwrapped.page
    before = page.project_json()["targets"]
    # change it: move the lone turn block under the move block and scroll the workspace
    turn = canvas_box(page, "motion_turnright")
    env.step({"action_type": "drag", "start": grab(turn), "end": [150, 400]})
    env.step({"action_type": "scroll", "start": [500, 400], "scroll": [0, 300]})
    env.step({"action_type": "click", "start": [30, 430]})  # Variables category
    assert page.project_json()["targets"] != before
    obs2, _ = env.reset(options={"project": str(path)})
    after = page.project_json()["targets"]
    assert after == before
    obs3, _ = env.reset(options={"project": str(path)})
    assert np.array_equal(obs2["screenshot"], obs3["screenshot"])
    assert np.array_equal(obs1["screenshot"], obs2["screenshot"])


@pytest.mark.browser
def test_reset_restores_the_large_stage_an_agent_switched_away_from(env):
    expected, _ = env.reset()
    env.unwrapped.page.stage_size("small")  # what the small-stage button does
    observed, _ = env.reset()
    assert env.unwrapped.page.stage_size() == "large"
    assert np.array_equal(observed["screenshot"], expected["screenshot"])


@pytest.mark.browser
def test_reset_closes_an_open_menu_bar_menu_and_a_text_selection(env):
    """The menu bar's menus keep their open state outside the editor's store, and a select-all
    tints the page: a reset clears both, so the next episode's screen is the first one's."""
    first, _ = env.reset()
    page = env.unwrapped.page
    [edit] = [a for a in page.call("elements.texts") if a["text"] == "Edit"]
    env.step({"action_type": "click", "start": [edit["x"] + 5, edit["y"] + 5]})
    env.step({"action_type": "hotkey", "keys": ["Control", "a"]})
    opened = page.page.evaluate("document.querySelectorAll('[class*=menu-bar_active]').length")
    assert opened == 1 and page.page.evaluate("String(window.getSelection()).length") > 0
    again, _ = env.reset()
    assert np.array_equal(first["screenshot"], again["screenshot"])


@pytest.mark.browser
def test_points_outside_the_viewport_are_clipped_and_flagged(env):
    env.reset()
    _, _, _, _, info = env.step({"action_type": "click", "start": [-50, 9999]})
    assert info["clipped"] == ["start"]
    assert info["executed_action"]["start"] == [0.0, 719.0]
    assert info["last_action_error"] == ""


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        ({"action_type": "teleport"}, "unknown action type 'teleport'; allowed: click"),
        ({"action_type": 42}, "action type index 42 out of range 0-8"),
        ({"action_type": "drag", "start": [10, 10]}, "action 'drag' needs the field 'end'"),
        ({"action_type": "click", "start": "middle"}, "'start' must be 2 numbers"),
        ({"action_type": "click", "start": [float("nan"), 3]}, "'start' must be finite numbers"),
        ({"action_type": "type", "text": 12}, "'text' must be a string, got int"),
        ({"action_type": "key", "keys": "Hyper"}, "unknown key 'Hyper'"),
        ({"action_type": "scroll", "start": [5, 5], "scroll": [0, 1e9]}, "'scroll' components"),
        ("drag please", "an action must be a dict"),
    ],
)
@pytest.mark.browser
def test_bad_actions_give_specific_errors_and_leave_the_editor_unchanged(env, action, expected):
    env.reset()
    page = env.unwrapped.page
    before = page.project_json()
    view = page.call("view.state")
    obs, reward, terminated, truncated, info = env.step(action)
    assert expected in info["last_action_error"]
    assert obs["last_action_error"] == info["last_action_error"]
    assert info["steps"] == 1 and not terminated and reward == 0.0
    assert page.project_json() == before and page.call("view.state") == view
    move = flyout_box(page, "motion_movesteps")
    _, _, _, _, info = env.step({"action_type": "drag", "start": grab(move), "end": [450, 220]})
    assert info["last_action_error"] == "" and info["blocks"] == 1 and info["steps"] == 2


@pytest.mark.browser
def test_action_type_by_index_and_done_terminates(env):
    env.reset()
    _, _, terminated, _, info = env.step({"action_type": ACTION_NAMES.index("done")})
    assert terminated and info["executed_action"] == {"action_type": "done", "type": "done"}


@pytest.mark.browser
def test_step_budget_truncates(env):
    env.unwrapped.max_steps = 2
    try:
        env.reset()
        assert not env.step({"action_type": "click", "start": [600, 300]})[3]
        assert env.step({"action_type": "click", "start": [600, 300]})[3]
    finally:
        env.unwrapped.max_steps = None


@pytest.mark.browser
def test_missing_project_file_raises_file_not_found(env, tmp_path):
    missing = tmp_path / "nope.sb3"
    with pytest.raises(FileNotFoundError, match="nope.sb3"):
        env.reset(options={"project": str(missing)})
    obs, info = env.reset()
    assert info["editing_target"] == "Sprite1"


@pytest.mark.browser
def test_corrupt_sb3_raises_value_error_and_env_stays_usable(env, tmp_path):
    bad = tmp_path / "bad.sb3"
    bad.write_bytes(b"PK\x03\x04 this is not really a zip")
    with pytest.raises(ValueError, match="not a valid .sb3"):
        env.reset(options={"project": str(bad)})
    bad_json = tmp_path / "bad.json"
    bad_json.write_text(json.dumps({"targets": [{"name": "x"}]}))
    with pytest.raises(ValueError, match="no stage target"):
        env.reset(options={"project": str(bad_json)})
    env.reset()
    page = env.unwrapped.page
    move = flyout_box(page, "motion_movesteps")
    _, _, _, _, info = env.step({"action_type": "drag", "start": grab(move), "end": [450, 220]})
    assert info["blocks"] == 1


@pytest.mark.browser
def test_project_the_vm_rejects_raises_value_error(env):
    broken = project_with_script()
    broken["targets"][1]["costumes"] = "not a list"
    with pytest.raises(ValueError, match="could not be loaded"):
        env.reset(options={"project": broken})
    _, info = env.reset()
    assert info["blocks"] == 0 and info["editing_target"] == "Sprite1"


@pytest.mark.browser
def test_pixels_variant_observation_and_continuous_drag():
    env = gym.make("ScratchWorld-PrimitivePixels-v0", obs_size=(160, 90))
    try:
        obs, _ = env.reset(seed=0)
        assert obs.shape == (90, 160, 3) and obs.dtype == np.uint8
        page = env.unwrapped.page
        move = flyout_box(page, "motion_movesteps")
        x, y = grab(move)
        to_unit = lambda v, size: v / (size - 1) * 2 - 1  # noqa: E731
        action = np.array([to_unit(x, 1280), to_unit(y, 720), 0.0, -0.3], np.float32)
        obs, _, _, _, info = env.step(action)
        assert info["blocks"] == 1 and info["clipped"] == []
        _, _, _, _, info = env.step(np.array([2.0, 0, 0, 0], np.float32))
        assert info["clipped"] == ["start"]
    finally:
        env.close()


@pytest.mark.browser
def test_element_list_in_the_observation_and_index_targeting(env):
    obs, info = env.reset()
    rows = obs["elements"].splitlines()
    assert rows and rows[0].startswith("0 ")
    assert len(info["elements"]) == len(rows)
    move = next(e for e in info["elements"] if e.get("opcode") == "motion_movesteps")
    index = info["elements"].index(move)
    _, _, _, _, info = env.step({"action_type": "drag", "element": index, "end": [450, 250]})
    assert info["last_action_error"] == "" and info["blocks"] == 1
    before = env.unwrapped.page.project_json()
    _, _, _, _, info = env.step({"action_type": "click", "element": len(rows) + 500})
    assert "is not in this step's element list" in info["last_action_error"]
    assert env.unwrapped.page.project_json() == before


@pytest.mark.browser
def test_an_element_index_without_an_element_list_is_a_clear_error():
    """The screen-only observation lists no elements: an ``element`` index is reported back to
    the agent (and the episode goes on); the action model looks elements up where the observation
    model says they are (``use_elements`` / ``shown_elements``), with no element list here."""
    from scratch_gym.envs.scratch import ScratchEnv

    env = ScratchEnv(action="primitive", observation="screen")
    try:
        env.reset()
        _, _, terminated, truncated, info = env.step({"action_type": "click", "element": 0})
        assert "needs an observation with an element list" in info["last_action_error"]
        assert not (terminated or truncated) and "elements" not in info
    finally:
        env.close()
