"""A scripted primitive-mode agent for the demo episode: builds and runs a two-block script.

It reads block geometry through the env's privileged channel (``bind``; information no learning
agent gets) and acts only through primitive actions: drag "move (10) steps" onto the canvas,
drag "turn right (15) degrees" under it, click the script to run it, then ``done``.
"""

from __future__ import annotations

from typing import Any

from scratch_gym.agents.base import Agent, privileged_channel

CANVAS_DROP = (450.0, 200.0)


def block_box(channel: Any, opcode: str, *, in_flyout: bool) -> dict[str, Any]:
    """The screen box of the first (non-shadow) block with ``opcode`` in the flyout or canvas
    (``channel``: an env's privileged channel, or anything with a ``bridge``)."""
    for box in channel.bridge.workspace_block_boxes(flyout=in_flyout, canvas=not in_flyout):
        if box["opcode"] == opcode and not box["shadow"]:
            return box
    where = "flyout" if in_flyout else "canvas"
    raise LookupError(f"no {opcode} block visible in the {where}")


def grab_point(box: dict[str, Any]) -> list[float]:
    """A point on the block's label at its left edge (not on an input)."""
    return [box["x"] + 8.0, box["y"] + min(box["h"] / 2.0, 20.0)]


class DemoAgent(Agent):
    """Builds `move (10) steps` / `turn right (15) degrees`, clicks it, says done."""

    name = "demo"

    def __init__(self) -> None:
        super().__init__()
        self.page: Any = None  # the bound env's privileged channel
        self._step = 0

    def bind(self, env: Any) -> None:
        self.page = privileged_channel(env)

    def reset(self, task: Any = None) -> None:
        super().reset(task)
        self._step = 0

    def act(self, observation: Any, info: dict[str, Any]) -> dict[str, Any]:
        self._step += 1
        if self._step == 1:
            move = block_box(self.page, "motion_movesteps", in_flyout=True)
            return {"action_type": "drag", "start": grab_point(move), "end": list(CANVAS_DROP)}
        if self._step == 2:
            turn = block_box(self.page, "motion_turnright", in_flyout=True)
            placed = block_box(self.page, "motion_movesteps", in_flyout=False)
            # drop the turn block's top-left just under the move block's bottom-left
            grab = grab_point(turn)
            end = [
                placed["x"] + (grab[0] - turn["x"]),
                placed["y"] + placed["h"] + (grab[1] - turn["y"]) - 6,
            ]
            return {"action_type": "drag", "start": grab, "end": end}
        if self._step == 3:
            placed = block_box(self.page, "motion_movesteps", in_flyout=False)
            return {"action_type": "click", "start": grab_point(placed)}
        return {"action_type": "done"}
