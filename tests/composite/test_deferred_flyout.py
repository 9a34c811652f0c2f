"""Composite steps defer the flyout rebuild until something looks at it (bridge/toolbox.js)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import scratch_gym  # noqa: F401
from scratch_gym.program import catalogue


def _flyout_opcodes(page) -> set[str]:
    opcodes = page.page.evaluate(
        "ScratchGym.workspace().getFlyout().getWorkspace().getTopBlocks(false).map(b => b.type)"
    )
    return set(opcodes)


@pytest.mark.browser
def test_target_switch_defers_the_flyout_until_render_and_render_matches_an_immediate_rebuild():
    env = gym.make("ScratchWorld-Composite-v0", render_mode="rgb_array")
    try:
        env.reset()
        page = env.unwrapped.page
        at_reset = env.render()
        assert "motion_movesteps" in _flyout_opcodes(page)
        _, _, _, _, info = env.step({"api": "select_stage", "args": {}})
        assert info["editing_target"] == "Stage"
        state = page.call("toolbox.state")
        assert state["deferring"] and state["pending"]
        assert "motion_movesteps" in _flyout_opcodes(page)  # still the sprite's flyout
        deferred = env.render()
        assert not page.call("toolbox.state")["pending"]
        assert "motion_movesteps" not in _flyout_opcodes(page)  # the stage has no motion blocks

        env.reset()  # back to Sprite1 (reset settles to a painted frame: the flyout is rebuilt)
        assert np.array_equal(at_reset, env.render())

        env.reset()
        page.defer_flyout(False)  # as the editor does by itself: rebuild at once
        env.step({"api": "select_stage", "args": {}})
        assert not page.call("toolbox.state")["pending"]
        assert np.array_equal(deferred, env.render())
    finally:
        env.close()


@pytest.mark.browser
def test_add_block_after_a_switch_takes_the_new_targets_defaults():
    """The flyout's block gives a new block's defaults: the stage's last sound, not Sprite1's."""
    env = gym.make("ScratchWorld-Composite-v0")
    try:
        env.reset()
        obs, *_ = env.step({"api": "add_block", "args": {"opcode": "sound_play"}})
        assert "Meow" in obs["pseudocode"]
        env.step({"api": "select_stage", "args": {}})
        assert env.unwrapped.page.call("toolbox.state")["pending"]
        obs, *_ = env.step({"api": "add_block", "args": {"opcode": "sound_play"}})
        assert obs["last_action_error"] == ""
        assert "pop" in obs["pseudocode"] and "Meow" not in obs["pseudocode"]
    finally:
        env.close()


@pytest.mark.browser
def test_new_variable_reaches_the_flyout_when_shown():
    env = gym.make("ScratchWorld-Composite-v0", render_mode="rgb_array")
    try:
        env.reset()
        page = env.unwrapped.page
        env.step({"api": "add_variable", "args": {"name": "score", "scope": "all"}})
        assert page.call("toolbox.state")["pending"]
        # Only the variable category waits: blocks are added without rebuilding the flyout, with
        # the same defaults the flyout gives (the catalogue holds them).
        obs, *_ = env.step({"api": "add_block", "args": {"opcode": "data_changevariableby"}})
        assert obs["pseudocode"] == "1  change [score v] by (1)"
        assert page.call("toolbox.state")["pending"]
        env.render()
        names = page.page.evaluate(
            "ScratchGym.workspace().getFlyout().getWorkspace().getTopBlocks(false)"
            ".filter(b => b.type === 'data_variable').map(b => b.getField('VARIABLE').getText())"
        )
        assert "score" in names
    finally:
        env.close()


@pytest.mark.browser
def test_data_blocks_get_the_flyouts_defaults_while_the_flyout_waits():
    """After add_variable/add_list the variable category waits; every data block then comes from
    the catalogue, with the same state as from the rebuilt flyout."""
    opcodes = [s.opcode for s in catalogue.by_category("variables")]
    env = gym.make("ScratchWorld-Composite-v0", render_mode="rgb_array")
    try:
        seen = []
        for rebuild_first in (True, False):
            env.reset()
            env.step({"api": "add_variable", "args": {"name": "score", "scope": "all"}})
            env.step({"api": "add_list", "args": {"name": "log", "scope": "all"}})
            if rebuild_first:
                env.render()
            assert env.unwrapped.page.call("toolbox.state")["pending"] is not rebuild_first
            for opcode in opcodes:
                obs, *_ = env.step({"api": "add_block", "args": {"opcode": opcode}})
                assert obs["last_action_error"] == "", opcode
            seen.append((obs["pseudocode"], obs["fields"]))
        assert len(opcodes) > 10 and seen[0] == seen[1]
    finally:
        env.close()


@pytest.mark.browser
def test_composite_actions_with_a_screen_observation_return_the_painted_frame():
    """The observation model owns the wait for paint: a screenshot observation after a composite
    edit is the settled frame (what render() shows after waiting), with the new block on it."""
    from scratch_gym.envs.scratch import ScratchEnv

    env = ScratchEnv(action="composite", observation="screen", render_mode="rgb_array")
    try:
        obs, _ = env.reset()
        before = obs["screenshot"]
        obs, _, _, _, info = env.step({"api": "add_block", "args": {"opcode": "motion_movesteps"}})
        assert info["last_action_error"] == ""
        assert not np.array_equal(before, obs["screenshot"])  # the new block is painted
        assert np.array_equal(obs["screenshot"], env.render())
        obs, *_ = env.step({"api": "select_stage", "args": {}})
        assert np.array_equal(obs["screenshot"], env.render())  # flyout rebuilt, painted
    finally:
        env.close()
