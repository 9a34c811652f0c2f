"""Drag outcomes do not depend on machine load: settle detection adapts, no fixed sleeps."""

from __future__ import annotations

import gymnasium as gym
import pytest

from scratch_gym.reliability.load import CpuBurner
from tests.helpers import canvas_box, flyout_box, grab, vm_blocks


def _structure(page) -> list[tuple]:
    """The VM's blocks as (opcode, parent opcode, next opcode) triples, ids left out."""
    blocks = vm_blocks(page)

    def op(block_id):
        return blocks[block_id]["opcode"] if block_id else None

    return sorted(
        (b["opcode"], op(b["parent"]), op(b["next"])) for b in blocks.values() if not b["shadow"]
    )


def _build(env) -> list[tuple]:
    env.reset()
    page = env.unwrapped.page
    for opcode, under in (
        ("motion_movesteps", None),
        ("motion_turnright", "motion_movesteps"),
        ("motion_turnleft", "motion_turnright"),
    ):
        source = flyout_box(page, opcode)
        start = grab(source)
        if under is None:
            end = [450.0, 200.0]
        else:
            anchor = canvas_box(page, under)
            end = [anchor["x"] + 8.0, anchor["y"] + anchor["h"] + (start[1] - source["y"]) - 6]
        _, _, _, _, info = env.step({"action_type": "drag", "start": start, "end": end})
        assert info["settled"], info
    return _structure(page)


@pytest.mark.browser
def test_drag_outcomes_identical_with_the_other_core_busy():
    env = gym.make("ScratchWorld-Primitive-v0")
    try:
        quiet = _build(env)
        with CpuBurner(processes=2, max_seconds=120):
            busy = _build(env)
    finally:
        env.close()
    assert quiet == busy
    assert ("motion_turnleft", "motion_turnright", None) in quiet
    assert ("motion_turnright", "motion_movesteps", "motion_turnleft") in quiet
