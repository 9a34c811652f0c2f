"""Grid search for a feasible region: BFS with 4-connectivity, coarse grid first, boundary refined.

``test(point) -> bool`` is expensive (a real drag in the editor). The fine grid has spacing
``step``; the coarse grids have spacing ``step * 2**k`` for k = ``levels`` .. 1. A coarse BFS
finds the region at the coarsest spacing; each finer level labels its new points from the coarse
cell around them when all four corners agree (interior or exterior), and probes them otherwise
(cells the boundary crosses). The result is the fine BFS from the seed over those labels: the
same set as a fine BFS that probed every point, provided no feature of the region or of its
complement is thinner than the coarse spacing (``levels=0`` probes every point it reaches).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

Point = tuple[int, int]
NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))


@dataclass
class SearchResult:
    points: list[Point]
    probes: int  # real tests run
    inferred: int  # fine labels taken from agreeing coarse corners
    labels: dict[Point, bool] = field(default_factory=dict)


class _Labels:
    """Probe results and inferences over the fine lattice (multiples of ``step``)."""

    def __init__(self, test: Callable[[Point], bool], inside: Callable[[Point], bool]) -> None:
        self.test = test
        self.inside = inside
        self.known: dict[Point, bool] = {}
        self.probed = 0
        self.inferred = 0

    def probe(self, p: Point) -> bool:
        if p not in self.known:
            self.known[p] = bool(self.inside(p) and self.test(p))
            self.probed += 1
        return self.known[p]


def bfs(labels: _Labels, seed: Point, spacing: int, label: Callable[[Point], bool]) -> set[Point]:
    """Points reachable from ``seed`` over lattice ``spacing`` through feasible labels."""
    if not label(seed):
        return set()
    found = {seed}
    queue = deque([seed])
    seen = {seed}
    while queue:
        x, y = queue.popleft()
        for dx, dy in NEIGHBOURS:
            q = (x + dx * spacing, y + dy * spacing)
            if q in seen:
                continue
            seen.add(q)
            if label(q):
                found.add(q)
                queue.append(q)
    return found


def snap(value: float, spacing: int) -> int:
    return int(round(value / spacing) * spacing)


def search_region(
    test: Callable[[Point], bool],
    seed: tuple[float, float],
    step: int = 5,
    levels: int = 1,
    inside: Callable[[Point], bool] = lambda p: True,
) -> SearchResult:
    """The feasible region around ``seed`` (which should be feasible) on the ``step`` grid."""
    labels = _Labels(test, inside)
    coarse = step * 2**levels
    start = _coarse_seed(labels, seed, coarse, step) if levels > 0 else None
    if start is None:  # region thinner than the coarse grid there: plain fine BFS
        fine_seed = _fine_seed(labels, seed, step)
        pts = bfs(labels, fine_seed, step, labels.probe) if fine_seed else set()
        return SearchResult(sorted(pts), labels.probed, 0, labels.known)
    region = bfs(labels, start, coarse, labels.probe)
    spacing = coarse
    while spacing > step:
        half = spacing // 2
        region = bfs(labels, start, half, _refined(labels, spacing, half))
        spacing = half
    return SearchResult(sorted(region), labels.probed, labels.inferred, labels.known)


def _refined(labels: _Labels, coarse: int, fine: int) -> Callable[[Point], bool]:
    """Label a point of the ``fine`` lattice from its ``coarse`` cell's corners, else probe it."""

    def label(p: Point) -> bool:
        if p in labels.known:
            return labels.known[p]
        x0, y0 = (p[0] // coarse) * coarse, (p[1] // coarse) * coarse
        xs = (x0,) if p[0] == x0 else (x0, x0 + coarse)
        ys = (y0,) if p[1] == y0 else (y0, y0 + coarse)
        corners = [labels.known.get((x, y)) for x in xs for y in ys]
        if None not in corners and len(set(corners)) == 1:
            labels.known[p] = bool(corners[0])
            labels.inferred += 1
            return labels.known[p]
        return labels.probe(p)

    return label


def _coarse_seed(
    labels: _Labels, seed: tuple[float, float], coarse: int, step: int
) -> Point | None:
    """A feasible coarse-lattice point at a corner of the coarse cell holding ``seed``."""
    x0, y0 = int(seed[0] // coarse) * coarse, int(seed[1] // coarse) * coarse
    corners = sorted(
        [(x0, y0), (x0 + coarse, y0), (x0, y0 + coarse), (x0 + coarse, y0 + coarse)],
        key=lambda c: (c[0] - seed[0]) ** 2 + (c[1] - seed[1]) ** 2,
    )
    for c in corners:
        if labels.probe(c):
            return c
    return None


def _fine_seed(labels: _Labels, seed: tuple[float, float], step: int) -> Point | None:
    """The nearest feasible fine-lattice point within two steps of ``seed``."""
    sx, sy = snap(seed[0], step), snap(seed[1], step)
    ring = sorted(
        ((sx + i * step, sy + j * step) for i in range(-2, 3) for j in range(-2, 3)),
        key=lambda c: (c[0] - seed[0]) ** 2 + (c[1] - seed[1]) ** 2,
    )
    for c in ring:
        if labels.probe(c):
            return c
    return None
