"""Settle detection copes with what Blockly 12 shows differently from the VM, counts a drop's
frames from when it reaches the VM, and waits for a deleted block's shrinking copy to go."""

from __future__ import annotations

import time

import gymnasium as gym
import numpy as np
import pytest

import scratch_gym  # noqa: F401
from scratch_gym.agents.demo import block_box, grab_point
from scratch_gym.program import ProjectBuilder


def test_settles_with_reporters_over_shadows_and_custom_blocks(fresh_editor):
    project = (
        ProjectBuilder()
        .sprite(
            "Sprite1",
            scripts=(
                "when @greenFlag clicked\n"
                "move ((x position) + (2)) steps\n"
                "\n"
                "define jump (h)\n"
                "change y by (h)\n"
            ),
        )
        .build()
    )
    fresh_editor.load_project(project)
    result = fresh_editor.settle(timeout_ms=3000)
    assert result["settled"], result
    assert result["ms"] < 3000


def _settle_in_page(page, from_call: bool, scroll_on_frame: int | None = None) -> dict:
    """``editor.settle`` with two stable frames, run in the page; with ``scroll_on_frame`` the
    workspace scrolls by 40 px in that animation frame after the call."""
    return page.page.evaluate(
        """async ([fromCall, scrollOn]) => {
          const ws = ScratchGym.workspace();
          if (scrollOn !== null) {
            let n = 0;
            const tick = () => {
              if (++n === scrollOn) ws.scroll(ws.scrollX + 40, ws.scrollY);
              else requestAnimationFrame(tick);
            };
            requestAnimationFrame(tick);
          }
          return (await ScratchGym.call('editor.settle',
            {timeout_ms: 3000, stable_frames: 2, from_call: fromCall})).value;
        }""",
        [from_call, scroll_on_frame],
    )


def test_a_step_settle_counts_its_stable_frames_from_the_call(fresh_editor):
    """With from_call (an env step's settle), a still editor settles after two frames, not three;
    a change in one of them starts the count again."""
    still = _settle_in_page(fresh_editor, from_call=True)
    assert still["settled"] and still["frames"] == 2, still
    full = _settle_in_page(fresh_editor, from_call=False)
    assert full["settled"] and full["frames"] == 3, full
    moved = _settle_in_page(fresh_editor, from_call=True, scroll_on_frame=1)
    assert moved["settled"] and moved["frames"] >= 3, moved
    fresh_editor.bridge.view_reset()


@pytest.mark.browser
def test_a_drop_settles_two_frames_after_the_call_with_the_vm_holding_its_new_place():
    """A drop reaches the VM on a timer Blockly starts in the next animation frame; the settle
    judges each frame after it, so a step's drop settles after its two stable frames (it took
    four while the VM's own copy of the blocks was part of what had to stay still), and the VM
    then holds the block where the workspace shows it. On an environment's page, whose VM loop
    a reset stopped, as in a step."""
    env = gym.make("ScratchWorld-Primitive-v0")
    try:
        env.reset()
        page = env.unwrapped.page
        for end in ((430.0, 200.0), (430.0, 420.0)):
            start = grab_point(block_box(page, "motion_movesteps", in_flyout=True))
            page.drag_path([start, (start[0] + 6, start[1]), end])
            result = page.settle(3000, 2, stop_vm=True, from_call=True)
            assert result["settled"] and result["frames"] == 2, result
        placed = page.page.evaluate(
            """() => ScratchGym.workspace().getTopBlocks(false).map(b => {
              const xy = b.getRelativeToSurfaceXY();
              const v = ScratchGym.vm.editingTarget.blocks._blocks[b.id];
              return {opcode: b.type, x: xy.x, y: xy.y, vm_x: v.x, vm_y: v.y};
            })"""
        )
        assert [b["opcode"] for b in placed] == ["motion_movesteps"] * 2
        for b in placed:
            assert abs(b["vm_x"] - b["x"]) < 0.5 and abs(b["vm_y"] - b["y"]) < 0.5, b
    finally:
        env.close()


@pytest.mark.browser
def test_a_step_that_deletes_a_block_returns_once_its_shrinking_copy_is_gone():
    """Blockly shows a deleted block's shrinking copy for a few frames after the block left the
    workspace; a step waits for it to go, so its screen is the one that stays (and the next press
    cannot hit the copy)."""
    env = gym.make("ScratchWorld-Primitive-v0")
    try:
        env.reset()
        page = env.unwrapped.page
        start = grab_point(block_box(page, "motion_movesteps", in_flyout=True))
        env.step({"action_type": "drag", "start": start, "end": [430, 250]})
        start = grab_point(block_box(page, "motion_movesteps", in_flyout=False))
        # dropped on the palette: deleted
        obs, *_ = env.step({"action_type": "drag", "start": start, "end": [150, 300]})
        copies = page.page.evaluate(
            "document.querySelectorAll('.blocklyAnimationLayer path').length"
        )
        assert copies == 0
        assert page.bridge.vm_blocks() == {}
        time.sleep(0.3)
        assert np.array_equal(obs["screenshot"], page.screenshot())
    finally:
        env.close()
