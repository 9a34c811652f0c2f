"""The Visual Perception QA suite (``perception``): one question about one editor screenshot per
episode, live in the editor; reported as accuracy by question type."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from scratch_gym.records.status import is_counted
from scratch_gym.records.text import table
from scratch_gym.suites.base import Suite

PERCEPTION_KINDS = ("connection", "existence", "field")


@dataclass(frozen=True)
class PerceptionSuite(Suite):
    """The questions of the first ``screens`` scenes of the benchmark drawn with ``seed``."""

    seed: int = 0
    screens: int = 10
    name = "perception"
    modes = ("perception",)

    def __post_init__(self) -> None:
        if self.screens < 1:
            raise ValueError(f"screens must be >= 1, got {self.screens}")

    @property
    def source(self) -> str:
        return f"seed {self.seed}, {self.screens} scenes"

    def select(
        self, categories: Sequence[str] | None = None, task_ids: Sequence[str] | None = None
    ) -> list[Any]:
        from scratch_gym.perception.items import QuestionSlot, question_slots

        if task_ids:
            return [QuestionSlot.from_id(t) for t in task_ids]
        return question_slots(self.seed, self.screens)

    def load(self, task_id: str) -> Any:
        from scratch_gym.perception.items import QuestionSlot

        return QuestionSlot.from_id(task_id)

    def make_env(self, mode: str, env_spec: Any) -> Any:
        from scratch_gym.perception.env import PerceptionEnv

        self.check_mode(mode)
        return PerceptionEnv(seed=self.seed, screens=self.screens, render_mode="rgb_array")

    def judge(self, task: Any, info: dict[str, Any], action: Any = None) -> dict[str, Any]:
        correct = bool(info.get("correct", False))
        return {
            "success": correct,
            "psr": float(correct),
            "correct": correct,
            "question": info.get("kind"),
            "subtype": info.get("subtype"),
            "question_id": info.get("id"),
        }

    def report(self, records: list[dict[str, Any]]) -> str:
        return "Visual Perception QA (accuracy %)\n" + perception_table(records)

    def figures(self, records: list[dict[str, Any]]) -> dict[str, Any]:
        mine = [r for r in records if r.get("mode") == "perception"]
        out: dict[str, Any] = {"accuracy": _mean(r.get("correct") for r in mine)}
        out["by_kind"] = {
            k: _mean(r.get("correct") for r in mine if r.get("question") == k)
            for k in PERCEPTION_KINDS
        }
        return out


def _mean(values: Any) -> float | None:
    vals = [float(bool(v)) for v in values]
    return sum(vals) / len(vals) if vals else None


def perception_table(records: Iterable[dict[str, Any]]) -> str:
    """Perception runs (records with mode ``perception``, ``question`` kind, ``correct``):
    accuracy for connection, existence, field and overall, per agent, over every question asked
    (an infrastructure error is a wrong answer, and counted in ``infra``)."""
    records = [r for r in records if r.get("mode") == "perception"]
    rows = []
    for agent in dict.fromkeys(r["agent"] for r in records):
        mine = [r for r in records if r["agent"] == agent]
        row: list[Any] = [agent]
        for kind in PERCEPTION_KINDS:
            row.append(_pct(_mean(r.get("correct") for r in mine if r.get("question") == kind)))
        row += [_pct(_mean(r.get("correct") for r in mine)), len(mine)]
        rows.append([*row, sum(not is_counted(r) for r in mine)])
    headers = ["agent", "connection", "existence", "field", "overall", "questions", "infra"]
    return table(headers, rows)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"
