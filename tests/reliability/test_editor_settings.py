"""An agent can change the editor's settings from the menu bar; the episode goes on and the next
reset starts from a new page's settings."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import scratch_gym  # noqa: F401


def _click_text(env, text: str) -> dict:
    page = env.unwrapped.page
    atoms = [a for a in page.call("elements.texts") if a["text"] == text]
    assert atoms, f"no visible text {text!r}"
    a = atoms[-1]
    obs, _, _, _, info = env.step(
        {"type": "click", "start": [a["x"] + a["w"] / 2, a["y"] + a["h"] / 2]}
    )
    assert obs["last_action_error"] == "" and info["settled"]
    return info


def _drag_move_block_to_canvas(env) -> None:
    boxes = env.unwrapped.page.call("workspace.blockBoxes", {"canvas": False})
    move = next(b for b in boxes if b["opcode"] == "motion_movesteps")
    start = [move["x"] + 12, move["y"] + move["h"] / 2]
    obs, _, _, _, info = env.step({"type": "drag", "start": start, "end": [700, 300]})
    assert obs["last_action_error"] == "" and info["settled"]


@pytest.mark.browser
def test_color_mode_and_language_changes_keep_the_episode_going_and_reset_restores_them():
    env = gym.make("ScratchWorld-Primitive-v0", render_mode="rgb_array")
    try:
        env.reset()
        page = env.unwrapped.page
        first = env.render()
        # High Contrast mounts a new code area (the old workspace is disposed).
        for text in ("Settings", "Color Mode", "High Contrast"):
            _click_text(env, text)
        assert page.call("editor.settings")["colorMode"] == "high-contrast"
        _drag_move_block_to_canvas(env)
        blocks = page.call("vm.blocks", {})
        assert any(b["opcode"] == "motion_movesteps" and b["topLevel"] for b in blocks.values())
        _, info = env.reset()
        assert info["page_refreshes"] == 1
        assert page.call("editor.settings") == {
            "locale": "en",
            "colorMode": "default",
            "theme": "default",
            "changed": False,
        }
        assert np.array_equal(first, env.render())

        for text in ("Settings", "Language", "Deutsch"):
            _click_text(env, text)
        assert page.call("editor.settings")["locale"] == "de"
        _, info = env.reset()
        assert info["page_refreshes"] == 2 and page.call("editor.settings")["locale"] == "en"
        assert np.array_equal(first, env.render())
    finally:
        env.close()
