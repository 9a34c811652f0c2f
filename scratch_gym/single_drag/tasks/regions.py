"""Feasible regions as data: grid points in screen pixels, distances to them, interior points."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass
class Region:
    """Feasible points of a grid with spacing ``step`` px (screen coordinates, x right, y down)."""

    points: np.ndarray  # (n, 2) int
    step: int

    @classmethod
    def of(cls, points: Any, step: int) -> Region:
        arr = np.asarray(list(points), dtype=np.int64).reshape(-1, 2)
        return cls(arr, int(step))

    def __len__(self) -> int:
        return len(self.points)

    def contains(self, point: tuple[float, float]) -> bool:
        """True when the grid cell around ``point`` is feasible (the point rounds to a member)."""
        return self.distance(point) == 0.0

    def distance(self, point: tuple[float, float]) -> float:
        """Pixels from ``point`` to the nearest feasible point; 0 inside (its cell is feasible)."""
        if len(self.points) == 0:
            return float("inf")
        p = np.asarray(point, dtype=np.float64)
        snapped = np.round(p / self.step) * self.step
        d_snap = np.abs(self.points - snapped).sum(axis=1)
        if np.any(d_snap == 0):
            return 0.0
        return float(np.sqrt(((self.points - p) ** 2).sum(axis=1)).min())

    def interior_point(self) -> tuple[float, float]:
        """The member farthest from the region's boundary (ties: nearest the centroid)."""
        if len(self.points) == 0:
            raise ValueError("an empty region has no interior point")
        x, y = self.by_interiority()[0]
        return float(x), float(y)

    def by_interiority(self) -> np.ndarray:
        """The members, farthest from the region's boundary first (ties: nearest the centroid)."""
        if len(self.points) == 0:
            return self.points
        pts = self.points
        members = {(int(x), int(y)) for x, y in pts}
        s = self.step
        lo, hi = pts.min(axis=0) - s, pts.max(axis=0) + s
        xs = np.arange(lo[0], hi[0] + 1, s)
        ys = np.arange(lo[1], hi[1] + 1, s)
        outside = np.array(
            [(x, y) for x in xs for y in ys if (int(x), int(y)) not in members], dtype=np.float64
        )
        d2 = ((pts[:, None, :] - outside[None, :, :]) ** 2).sum(axis=2).min(axis=1)
        centroid = pts.mean(axis=0)
        tie = ((pts - centroid) ** 2).sum(axis=1)
        return pts[np.lexsort((tie, -d2))]

    def to_json(self) -> list[list[int]]:
        return self.points.tolist()


@dataclass
class Regions:
    """A task's start region, its end region for the fixed start ``anchor``, and how they were made."""

    start: Region
    end: Region
    anchor: tuple[float, float]  # the start point the end region was probed from
    # "bfs" (probed by real drags), "bfs-model" (probed by the calibrated drag model) or
    # "geometry" (Blockly's connection geometry)
    method: str = "bfs"
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def step(self) -> int:
        return self.start.step

    def end_distance(self, start: tuple[float, float], end: tuple[float, float]) -> float:
        """Distance of the drop point from the end region, corrected for where the block was
        grabbed: the block moves rigidly, so a grab ``start`` other than ``anchor`` shifts the
        region by ``start - anchor`` (applied only when ``start`` lies in the start region)."""
        if self.start.contains(start):
            end = (end[0] - (start[0] - self.anchor[0]), end[1] - (start[1] - self.anchor[1]))
        return self.end.distance(end)

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "step": self.step,
            "anchor": [round(self.anchor[0], 2), round(self.anchor[1], 2)],
            "start": self.start.to_json(),
            "end": self.end.to_json(),
            "stats": self.stats,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Regions:
        step = int(data["step"])
        return cls(
            start=Region.of(data["start"], step),
            end=Region.of(data["end"], step),
            anchor=(float(data["anchor"][0]), float(data["anchor"][1])),
            method=str(data.get("method", "bfs")),
            stats=dict(data.get("stats", {})),
        )
