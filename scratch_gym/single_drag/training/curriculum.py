"""A curriculum for drag policies: near targets first, the full range later.

``NearFirst`` wraps a single-drag environment of generated tasks and redraws a task at reset
while the drag it asks for (from the grab anchor to the feasible end region) is longer than the
current limit; the limit grows linearly from ``start_px`` to ``end_px`` over ``ramp_episodes``.
A redraw costs a reset, so at most ``max_redraws`` are made (then the last task is kept).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym


class NearFirst(gym.Wrapper):
    """Redraw generated tasks until the drag distance is within the current limit."""

    def __init__(
        self,
        env: gym.Env,
        start_px: float = 450.0,
        end_px: float = 1500.0,
        ramp_episodes: int = 500,
        max_redraws: int = 4,
    ) -> None:
        super().__init__(env)
        self.start_px, self.end_px = float(start_px), float(end_px)
        self.ramp_episodes = max(1, int(ramp_episodes))
        self.max_redraws = int(max_redraws)
        self.episodes = 0

    @property
    def limit_px(self) -> float:
        frac = min(1.0, self.episodes / self.ramp_episodes)
        return self.start_px + frac * (self.end_px - self.start_px)

    def drag_distance(self) -> float:
        """How far the current task's block must travel (anchor to the end region)."""
        task = self.env.unwrapped.task
        regions = task.regions
        return float(regions.end.distance(regions.anchor))

    def reset(self, **kwargs: Any):
        obs, info = self.env.reset(**kwargs)
        kwargs.pop("seed", None)
        for _ in range(self.max_redraws):
            if self.drag_distance() <= self.limit_px:
                break
            obs, info = self.env.reset(**kwargs)
        self.episodes += 1
        info["curriculum_limit_px"] = self.limit_px
        info["drag_distance_px"] = self.drag_distance()
        return obs, info
