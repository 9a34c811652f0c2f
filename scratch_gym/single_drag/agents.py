"""Built-in agents: ``oracle`` (region interiors) and ``random`` (uniform over the code area).

An agent maps (observation, task) to a drag ((x0, y0), (x1, y1)) in viewport pixels. Built-in
agents read the task (the oracle its regions); agents under test should use the observation only.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from scratch_gym.single_drag.task import Task

Point = tuple[float, float]
CODE_AREA = ((60.0, 93.0), (781.0, 719.0))  # palette + workspace: where blocks are


class Agent(Protocol):
    name: str

    def act(self, observation: Any, task: Task, setting: str) -> tuple[Point, Point]: ...


class OracleAgent:
    """Drags from the start region's most interior point to the end region's."""

    name = "oracle"

    def act(self, observation: Any, task: Task, setting: str) -> tuple[Point, Point]:
        if task.regions is None:
            raise ValueError(f"task {task.id} has no regions: recompute them first")
        return task.regions.anchor, task.regions.end.interior_point()


class RandomAgent:
    """Uniform start and end points over the code area (palette and workspace); in the
    ``gt_start`` setting it starts at the given start point."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)

    def _point(self) -> Point:
        (x0, y0), (x1, y1) = CODE_AREA
        return float(self.rng.uniform(x0, x1)), float(self.rng.uniform(y0, y1))

    def act(self, observation: Any, task: Task, setting: str) -> tuple[Point, Point]:
        if setting == "gt_start" and task.regions is not None:
            return task.regions.anchor, self._point()
        return self._point(), self._point()


AGENTS = {"oracle": OracleAgent, "random": RandomAgent}


def make_agent(name: str, seed: int = 0) -> Agent:
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; built-in agents: {', '.join(AGENTS)}")
    return RandomAgent(seed) if name == "random" else OracleAgent()
