"""The region search, region data and metrics, without a browser."""

from __future__ import annotations

import math

import pytest

from scratch_gym.single_drag.feasible.search import search_region
from scratch_gym.single_drag.metrics import RunRecord, pass_at_k, summarise
from scratch_gym.single_drag.tasks.regions import Region, Regions

SHAPES = {
    "rect": (lambda p: 70 <= p[0] <= 195 and 164 <= p[1] <= 201, (130, 180)),
    "disk": (lambda p: (p[0] - 400) ** 2 + (p[1] - 230) ** 2 <= 32**2, (400, 230)),
    "L": (lambda p: (0 <= p[0] <= 100 and 0 <= p[1] <= 30) or (0 <= p[0] <= 30 <= p[1] <= 120), (10, 10)),
}  # fmt: skip


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("levels", [1, 2])
def test_coarse_to_fine_equals_plain_bfs_with_fewer_probes(shape, levels):
    feasible, seed = SHAPES[shape]
    plain = search_region(feasible, seed, step=5, levels=0)
    fast = search_region(feasible, seed, step=5, levels=levels)
    assert fast.points == plain.points
    assert fast.probes < plain.probes


def test_bfs_keeps_only_the_seed_component():
    two = lambda p: 0 <= p[0] <= 20 and (0 <= p[1] <= 20 or 60 <= p[1] <= 80)  # noqa: E731
    result = search_region(two, (10, 10), step=5, levels=0)
    assert all(y <= 20 for _, y in result.points)


def test_region_distance_and_interior():
    region = Region.of([(x, y) for x in range(0, 55, 5) for y in range(0, 25, 5)], 5)
    assert region.distance((21, 9)) == 0.0  # inside (its grid cell is a member)
    assert region.distance((50, 40)) == pytest.approx(20.0)
    assert region.interior_point() == (25.0, 10.0)


def test_end_distance_follows_the_grab_point():
    start = Region.of([(x, y) for x in range(0, 45, 5) for y in range(0, 25, 5)], 5)
    end = Region.of([(x, y) for x in range(200, 225, 5) for y in range(100, 125, 5)], 5)
    regions = Regions(start, end, anchor=(20.0, 10.0))
    # grabbed 10 px further right: the feasible drop shifts 10 px right too
    assert regions.end_distance((30, 10), (230, 110)) == 0.0
    assert regions.end_distance((20, 10), (230, 110)) > 0.0


def test_pass_at_k_counts_a_task_when_any_of_its_first_k_runs_succeeds():
    rec = lambda t, r, ok: RunRecord(t, r, ok, ok, ok, 0.0 if ok else 5.0, 0.0 if ok else 9.0)  # noqa: E731
    records = [rec("a", 0, False), rec("a", 1, True), rec("a", 2, False),
               rec("b", 0, False), rec("b", 1, False), rec("b", 2, True),
               rec("c", 0, True), rec("c", 1, True), rec("c", 2, True)]  # fmt: skip
    assert pass_at_k(records, 1) == pytest.approx(1 / 3)
    assert pass_at_k(records, 2) == pytest.approx(2 / 3)
    assert pass_at_k(records, 3) == 1.0
    summary = summarise(records)
    assert summary["start_acc"] == pytest.approx(5 / 9)
    assert math.isclose(summary["start_err_px"], 5.0)  # over the 4 misses (the paper's)
    assert math.isclose(summary["start_err_all_px"], 4 * 5.0 / 9)  # over every drag
    assert summary["tasks"] == 3
