"""Benchmark metrics as ScratchWorld defines them (``results_single_step_drag_benchmark.py``):
Pass@k over runs, start/end-component accuracies and spatial errors.

Denominators:

* Pass@k: every selected task (an episode lost to an infrastructure error counts as a failed run).
  It is measured only where every task has at least ``k`` runs; otherwise it is ``None`` (``n/a``
  in tables, ``null`` in JSON), never copied from a smaller k.
* Start/End Acc: every episode.
* Start Err: the mean distance (px) from the grab point to the start region, over the episodes
  whose grab point lies *outside* it (the paper's "start gap"). End Err: the mean distance from
  the drop point to the end region, over the episodes whose grab point lies inside the start
  region and whose drop point lies *outside* the end region (the paper's "end gap": measured
  where the grab was right). Both are ``None`` when there is no such miss.
* ``start_err_all_px`` / ``end_err_all_px``: this project's earlier figures, the mean over every
  episode with a measured distance (0 for a point inside its region).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class RunRecord:
    """One episode of one task: the outcome of its single drag (``infra``: lost to an
    infrastructure error, a failed run without distances)."""

    task_id: str
    run: int
    success: bool
    start_correct: bool
    end_correct: bool
    start_error_px: float
    end_error_px: float
    infra: bool = False

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_outcome(
        cls, task_id: str, run: int, outcome: dict[str, Any], infra: bool = False
    ) -> RunRecord:
        """From an episode's outcome or results record (the single-drag suite's fields; a
        missing distance is NaN)."""

        def px(key: str) -> float:
            value = outcome.get(key)
            return float("nan") if value is None or infra else float(value)

        return cls(
            task_id,
            run,
            bool(outcome.get("success")) and not infra,
            bool(outcome.get("start_correct")) and not infra,
            bool(outcome.get("end_correct")) and not infra,
            px("start_error_px"),
            px("end_error_px"),
            infra,
        )


def _by_task(records: list[RunRecord]) -> dict[str, list[RunRecord]]:
    runs: dict[str, list[RunRecord]] = defaultdict(list)
    for r in records:
        runs[r.task_id].append(r)
    return runs


def runs_per_task(records: list[RunRecord]) -> int:
    """The number of runs every task has (the fewest among the tasks; 0 without records)."""
    return min((len(rs) for rs in _by_task(records).values()), default=0)


def pass_at_k(records: list[RunRecord], k: int) -> float | None:
    """Share of tasks that succeed in at least one of their first ``k`` runs; ``None`` when some
    task has fewer than ``k`` runs (not measured) or there are no records."""
    runs = _by_task(records)
    if not runs or min(len(rs) for rs in runs.values()) < k:
        return None
    hits = sum(any(r.success for r in sorted(rs, key=lambda r: r.run)[:k]) for rs in runs.values())
    return hits / len(runs)


def _mean(values: list[float]) -> float:
    finite = [v for v in values if math.isfinite(v)]
    return sum(finite) / len(finite) if finite else float("nan")


def start_misses(records: list[RunRecord]) -> list[float]:
    """Distances of the grab points outside the start region."""
    return [
        r.start_error_px
        for r in records
        if math.isfinite(r.start_error_px) and r.start_error_px > 0
    ]


def end_misses(records: list[RunRecord]) -> list[float]:
    """Distances of the drop points outside the end region, of episodes grabbed inside the
    start region."""
    return [
        r.end_error_px
        for r in records
        if r.start_error_px == 0 and math.isfinite(r.end_error_px) and r.end_error_px > 0
    ]


def summarise(records: list[RunRecord], ks: tuple[int, ...] = (1, 2, 3)) -> dict[str, Any]:
    """Pass@k (``None`` where fewer than k runs exist), start/end-component accuracy over every
    episode, and the spatial errors (px) over misses (the paper's) and over all drops."""
    out: dict[str, Any] = {f"pass@{k}": pass_at_k(records, k) for k in ks}
    n = len(records) or 1
    out["start_acc"] = sum(r.start_correct for r in records) / n
    out["end_acc"] = sum(r.end_correct for r in records) / n
    out["start_err_px"] = _mean(start_misses(records))
    out["end_err_px"] = _mean(end_misses(records))
    out["start_misses"] = len(start_misses(records))
    out["end_misses"] = len(end_misses(records))
    out["start_err_all_px"] = _mean([r.start_error_px for r in records])
    out["end_err_all_px"] = _mean([r.end_error_px for r in records])
    out["tasks"] = len(_by_task(records))
    out["runs"] = runs_per_task(records)
    out["episodes"] = len(records)
    out["infra"] = sum(r.infra for r in records)
    return out


def table_summary(records: list[RunRecord]) -> dict[str, Any]:
    """``summarise`` for the results table: Pass@1-3 (``None`` where not measured)."""
    return summarise(records, (1, 2, 3))


TABLE_HEADERS = (
    "Agent", "Setting", "Tasks", "Runs", "Pass@1", "Pass@2", "Pass@3",
    "Start Acc", "End Acc", "Start Err (px)", "End Err (px)",
    "Start Err all", "End Err all", "infra",
)  # fmt: skip


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}"


def _px(value: float | None) -> str:
    return "n/a" if value is None or not math.isfinite(value) else f"{value:.1f}"


def table_row(agent: str, setting: str, summary: dict[str, Any]) -> list[Any]:
    """One row of the paper's results table (percentages for rates; ``n/a`` where not
    measured)."""
    return [
        agent,
        setting,
        summary["tasks"],
        summary["runs"],
        _pct(summary["pass@1"]),
        _pct(summary["pass@2"]),
        _pct(summary["pass@3"]),
        _pct(summary["start_acc"]),
        _pct(summary["end_acc"]),
        _px(summary["start_err_px"]),
        _px(summary["end_err_px"]),
        _px(summary["start_err_all_px"]),
        _px(summary["end_err_all_px"]),
        summary["infra"],
    ]
