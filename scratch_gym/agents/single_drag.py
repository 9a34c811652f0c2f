"""Built-in agents for the Single-Step Drag suite (``mode="single_drag"``).

* :class:`DragOracleAgent` grabs at the task's anchor (the start region's most interior point) and
  drops at the end region's most interior point; it reads the regions through the environment's
  privileged channel (``hidden_facts()["regions"]``).
* :class:`DragRandomAgent` draws start and end uniformly over the code area (palette and
  workspace); in the ``gt_start`` setting, where the instruction gives the start point, it starts
  there.

* :class:`DragPolicyAgent` (``drag-policy``) runs a trained drag policy (the shipped checkpoint,
  or ``drag-policy:PATH``) and :class:`DragHeuristicAgent` (``drag-heuristic``) the scripted
  heuristic; both see only what ``ScratchWorld-SingleDragElements-v0`` shows (no regions).

All answer ``{"start": [x, y], "end": [x, y]}`` in viewport pixels.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any

import numpy as np

from scratch_gym.agents.base import Agent, PrivilegedAgent

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


class _ElementsDragAgent(Agent):
    """A drag policy of the ``elements`` space acting in the single-drag suite: it reads the
    screen as ``ScratchWorld-SingleDragElements-v0`` shows it (``observe_as("elements")``: the
    instruction and the element list, nothing privileged) and answers its drag in pixels: the
    policy's own points where it gives them (``pixel_points``, as the trained policy does: the
    suite takes pixels, so the grid action's 10 px cells need not round them), else its grid
    action's cell centres. ``policy`` maps one ``elements`` observation to grid actions (1, 4)."""

    mode = "single_drag"

    def __init__(self, policy: Callable[[dict[str, Any]], np.ndarray], mode: str | None) -> None:
        super().__init__()
        self.check_mode(mode)
        self.policy = policy
        self.env: Any = None

    def bind(self, env: Any) -> None:
        self.env = env.unwrapped if hasattr(env, "unwrapped") else env

    def act(self, observation: Any, info: dict[str, Any]) -> dict[str, list[float]]:
        from scratch_gym.single_drag.rl_spaces import grid_points

        if self.env is None:
            raise RuntimeError(f"the {self.name} agent needs bind(env) before it acts")
        obs = self.env.observe_as("elements")
        exact = getattr(self.policy, "pixel_points", None)
        start, end = exact(obs) if exact is not None else grid_points(self.policy(obs))
        return {"start": [float(v) for v in start[0]], "end": [float(v) for v in end[0]]}


class DragHeuristicAgent(_ElementsDragAgent):
    """The scripted heuristic (``single_drag.training.heuristic``): quoted phrases matched to
    element texts, Scratch's layout conventions for the drop."""

    name = "drag-heuristic"

    def __init__(self, mode: str | None = None) -> None:
        from scratch_gym.single_drag.training.heuristic import HeuristicDragPolicy

        super().__init__(HeuristicDragPolicy(), mode)


class DragPolicyAgent(_ElementsDragAgent):
    """A trained drag policy: the checkpoint shipped with the package, or ``checkpoint`` (a
    ``policy.pt`` written by ``examples/train_drag_policy.py``). Needs the ``rl`` extra."""

    name = "drag-policy"

    def __init__(self, mode: str | None = None, checkpoint: str | None = None) -> None:
        try:
            from scratch_gym.single_drag.training.policy import DragPolicy, shipped_checkpoint
        except ModuleNotFoundError as exc:  # torch
            raise ValueError(
                f"the drag-policy agent needs the rl extra ({exc.name} is not installed): "
                "pip install 'scratch-gym[rl]'"
            ) from None
        self.checkpoint = str(checkpoint or shipped_checkpoint())
        super().__init__(DragPolicy.load(self.checkpoint), mode)
