"""Benchmark metrics: Pass@k over runs, component accuracies and spatial errors (the paper's)."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class RunRecord:
    """One episode of one task: the outcome of its single drag."""

    task_id: str
    run: int
    success: bool
    start_correct: bool
    end_correct: bool
    start_error_px: float
    end_error_px: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_outcome(cls, task_id: str, run: int, outcome: dict[str, Any]) -> RunRecord:
        """From an episode's outcome or results record (the single-drag suite's fields; a
        missing distance is NaN)."""

        def px(key: str) -> float:
            value = outcome.get(key)
            return float("nan") if value is None else float(value)

        return cls(
            task_id,
            run,
            bool(outcome.get("success")),
            bool(outcome.get("start_correct")),
            bool(outcome.get("end_correct")),
            px("start_error_px"),
            px("end_error_px"),
        )


def pass_at_k(records: list[RunRecord], k: int) -> float:
    """Share of tasks that succeed in at least one of their first ``k`` runs."""
    runs: dict[str, list[RunRecord]] = defaultdict(list)
    for r in records:
        runs[r.task_id].append(r)
    if not runs:
        return 0.0
    hits = sum(any(r.success for r in sorted(rs, key=lambda r: r.run)[:k]) for rs in runs.values())
    return hits / len(runs)


def _mean(values: list[float]) -> float:
    finite = [v for v in values if math.isfinite(v)]
    return sum(finite) / len(finite) if finite else float("nan")


def summarise(records: list[RunRecord], ks: tuple[int, ...] = (1, 2, 3)) -> dict[str, Any]:
    """Pass@k, start/end-component accuracy and mean spatial errors (px) over all runs."""
    out: dict[str, Any] = {f"pass@{k}": pass_at_k(records, k) for k in ks}
    n = len(records) or 1
    out["start_acc"] = sum(r.start_correct for r in records) / n
    out["end_acc"] = sum(r.end_correct for r in records) / n
    out["start_err_px"] = _mean([r.start_error_px for r in records])
    out["end_err_px"] = _mean([r.end_error_px for r in records])
    out["tasks"] = len({r.task_id for r in records})
    out["episodes"] = len(records)
    return out


def table_summary(records: list[RunRecord]) -> dict[str, Any]:
    """``summarise`` for the results table: Pass@1-3, where Pass@k of fewer than k runs per task
    is Pass@(runs)."""
    runs = max((r.run for r in records), default=0) + 1
    out = summarise(records, tuple(range(1, min(runs, 3) + 1)))
    for k in range(runs + 1, 4):
        out[f"pass@{k}"] = out[f"pass@{runs}"]
    return out


TABLE_HEADERS = (
    "Agent", "Setting", "Pass@1", "Pass@2", "Pass@3",
    "Start Acc", "End Acc", "Start Err (px)", "End Err (px)",
)  # fmt: skip


def table_row(agent: str, setting: str, summary: dict[str, Any]) -> list[Any]:
    """One row of the paper's results table (percentages for rates)."""
    pct = lambda v: f"{100 * v:.1f}"  # noqa: E731
    return [
        agent,
        setting,
        pct(summary["pass@1"]),
        pct(summary["pass@2"]),
        pct(summary["pass@3"]),
        pct(summary["start_acc"]),
        pct(summary["end_acc"]),
        f"{summary['start_err_px']:.1f}",
        f"{summary['end_err_px']:.1f}",
    ]
