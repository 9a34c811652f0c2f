"""Built-in agents for the Single-Step Drag suite (``mode="single_drag"``).

* :class:`DragOracleAgent` grabs at the task's anchor (the start region's most interior point) and
  drops at the end region's most interior point; it reads the regions through the environment's
  privileged channel (``hidden_facts()["regions"]``).
* :class:`DragRandomAgent` draws start and end uniformly over the code area (palette and
  workspace); in the ``gt_start`` setting, where the instruction gives the start point, it starts
  there.

Both answer ``{"start": [x, y], "end": [x, y]}`` in viewport pixels.
"""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np

from scratch_gym.agents.base import PrivilegedAgent

CODE_AREA = ((60.0, 93.0), (781.0, 719.0))  # palette + workspace: where blocks are


class _DragAgent(PrivilegedAgent):
    mode = "single_drag"

    def regions(self) -> Any:
        """The episode's feasible regions (privileged)."""
        return self.fact("regions")


class DragOracleAgent(_DragAgent):
    """Drags from the start region's anchor to the end region's most interior point."""

    name = "oracle"

    def act(self, observation: Any, info: dict[str, Any]) -> dict[str, list[float]]:
        regions = self.regions()
        return {"start": list(regions.anchor), "end": list(regions.end.interior_point())}


class DragRandomAgent(_DragAgent):
    """Uniform start and end points over the code area (seeded); the given start in ``gt_start``."""

    name = "random"

    def __init__(self, mode: str | None = None, seed: int = 0) -> None:
        super().__init__(mode)
        self.episode_seed = seed
        self.rng = np.random.default_rng(seed)

    def seed(self, seed: int) -> None:
        self.episode_seed = seed

    def reset(self, task: Any = None) -> None:
        """Draw this episode's points from (seed, task id): other tasks get other points."""
        super().reset(task)
        salt = zlib.crc32(str(getattr(task, "id", "")).encode())
        self.rng = np.random.default_rng([self.episode_seed, salt])

    def _point(self) -> list[float]:
        (x0, y0), (x1, y1) = CODE_AREA
        return [float(self.rng.uniform(x0, x1)), float(self.rng.uniform(y0, y1))]

    def act(self, observation: Any, info: dict[str, Any]) -> dict[str, list[float]]:
        if info.get("setting") == "gt_start":
            start = list(self.regions().anchor)
        else:
            start = self._point()
        return {"start": start, "end": self._point()}
