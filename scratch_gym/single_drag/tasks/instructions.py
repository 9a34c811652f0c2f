"""What agents are told in each setting: the instruction text and, for gt_start, the marked start."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from scratch_gym.editor.page import VIEWPORT
from scratch_gym.single_drag.tasks.knowledge import KNOWLEDGE
from scratch_gym.single_drag.tasks.task import DragTask

SETTINGS = ("baseline", "gt_start", "knowledge")  # what the agent is told besides the task
MARK_RADIUS = 8  # px at full size
MARK_COLOUR = (255, 0, 0)


def instruction_for(task: DragTask, setting: str) -> str:
    """The task's instruction, plus the start point (gt_start) or the rules (knowledge)."""
    text = task.instruction
    if setting == "gt_start" and task.regions is not None:
        x, y = task.regions.anchor
        text += (
            f"\nStart the drag at ({x:.0f}, {y:.0f}) (marked with a red circle on the screenshot);"
            " choose where to release it."
        )
    elif setting == "knowledge":
        text += "\n\n" + KNOWLEDGE
    return text


def mark_start(shot: np.ndarray, point: tuple[float, float]) -> np.ndarray:
    """The screenshot with a red circle around ``point`` (full-size pixels; scaled to the shot)."""
    h, w = shot.shape[:2]
    sx, sy = w / VIEWPORT[0], h / VIEWPORT[1]
    x, y = point[0] * sx, point[1] * sy
    r = max(2.0, MARK_RADIUS * sx)
    img = Image.fromarray(shot)
    ImageDraw.Draw(img).ellipse(
        (x - r, y - r, x + r, y + r), outline=MARK_COLOUR, width=max(1, round(2 * sx))
    )
    return np.asarray(img)
