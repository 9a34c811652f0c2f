"""A random baseline for primitive mode: plausible mouse and keyboard actions on the editor.

Drags go from the palette to the code area (most often) or within the code area, clicks land
anywhere on the editor, and now and then it types, presses a key, scrolls or says ``done``.
Seeded: the same seed gives the same actions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from scratch_gym.agents.base import Agent

PALETTE = ((70.0, 100.0), (300.0, 710.0))  # (x0, y0), (x1, y1)
CANVAS = ((320.0, 100.0), (770.0, 710.0))
SCREEN = ((0.0, 0.0), (1279.0, 719.0))
CATEGORIES_X, CATEGORIES_Y = 31.0, (115.0, 475.0)
KEYS = ("Enter", "Escape", "Backspace", "Tab", "ArrowUp", "ArrowDown")
# action kind -> probability
WEIGHTS = {
    "palette_drag": 0.35,
    "canvas_drag": 0.1,
    "category": 0.1,
    "click": 0.2,
    "type": 0.07,
    "key": 0.07,
    "scroll": 0.06,
    "done": 0.05,
}


class RandomAgent(Agent):
    """Uniformly random actions of the kinds in ``WEIGHTS`` (primitive mode)."""

    name = "random"

    def __init__(self, mode: str = "primitive", seed: int = 0) -> None:
        super().__init__()
        if mode != "primitive":
            raise ValueError(f"the random agent acts in primitive mode, not {mode!r}")
        self.mode = mode
        self.base_seed = seed
        self.rng = np.random.default_rng(seed)
        self._kinds = list(WEIGHTS)
        self._p = np.array(list(WEIGHTS.values())) / sum(WEIGHTS.values())

    def seed(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: Any, info: dict[str, Any]) -> dict[str, Any]:
        kind = self._kinds[int(self.rng.choice(len(self._kinds), p=self._p))]
        if kind == "palette_drag":
            return {
                "action_type": "drag",
                "start": self._point(PALETTE),
                "end": self._point(CANVAS),
            }
        if kind == "canvas_drag":
            return {"action_type": "drag", "start": self._point(CANVAS), "end": self._point(CANVAS)}
        if kind == "category":
            y = float(self.rng.uniform(*CATEGORIES_Y))
            return {"action_type": "click", "start": [CATEGORIES_X, y]}
        if kind == "click":
            return {"action_type": "click", "start": self._point(SCREEN)}
        if kind == "type":
            return {"action_type": "type", "text": str(int(self.rng.integers(0, 100)))}
        if kind == "key":
            return {"action_type": "key", "keys": KEYS[int(self.rng.integers(len(KEYS)))]}
        if kind == "scroll":
            dy = float(self.rng.choice([-200.0, 200.0]))
            return {"action_type": "scroll", "start": self._point(PALETTE), "scroll": [0.0, dy]}
        return {"action_type": "done"}

    def _point(self, box: tuple[tuple[float, float], tuple[float, float]]) -> list[float]:
        (x0, y0), (x1, y1) = box
        return [float(self.rng.uniform(x0, x1)), float(self.rng.uniform(y0, y1))]
