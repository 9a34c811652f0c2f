"""The NL2Scratch suite (``nl2scratch``): write a program for a description, loaded into the real
editor; reported with the paper's columns (EM, F1, PS, SAC_nl, SAC_ref) under its protocol."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scratch_gym.suites.base import Suite

SCORES = ("em", "f1", "ps", "sac_nl", "sac_ref")


@dataclass(frozen=True)
class ProgramSuite(Suite):
    """The items of ``references`` (a JSONL of ``{key, nl, pseudocode}``), or without it the
    shipped tasks as descriptions with their golden scripts as references. Success: the program
    matches the reference exactly (EM, after whitespace normalisation)."""

    references: str | None = None
    name = "nl2scratch"
    modes = ("nl2scratch",)

    @property
    def source(self) -> str:
        return self.references or "the task suite's goldens"

    def _items(self, task_ids: Sequence[str] | None = None) -> list[Any]:
        from scratch_gym.nl2scratch.items import corpus_items, task_items

        if self.references is None:
            return task_items(list(task_ids) if task_ids else None)
        items = corpus_items(self.references)
        if task_ids:
            by_id = {i.id: i for i in items}
            unknown = [t for t in task_ids if t not in by_id]
            if unknown:
                raise ValueError(
                    f"no item {', '.join(unknown)} in {self.references} "
                    f"(ids nl2s-0000 to nl2s-{len(items) - 1:04d})"
                )
            return [by_id[t] for t in task_ids]
        return items

    def select(
        self, categories: Sequence[str] | None = None, task_ids: Sequence[str] | None = None
    ) -> list[Any]:
        return self._items(task_ids)

    def load(self, task_id: str) -> Any:
        return self._items([task_id])[0]

    def make_env(self, mode: str, env_spec: Any) -> Any:
        from scratch_gym.nl2scratch.program_env import ProgramEnv

        self.check_mode(mode)
        return ProgramEnv(render_mode="rgb_array")

    def judge(self, task: Any, info: dict[str, Any], action: Any = None) -> dict[str, Any]:
        from scratch_gym.nl2scratch.inputs import Example
        from scratch_gym.nl2scratch.protocols import get_protocol
        from scratch_gym.nl2scratch.scoring import score_prediction

        program = action if isinstance(action, str) else "\n".join(action or [])
        example = Example(task.key or task.id, task.instruction, list(task.reference))
        s = score_prediction(program, example, get_protocol("paper"), check_parse=True)
        return {
            "success": bool(s.em),
            "psr": float(s.sac_ref),
            "parsed": bool(info.get("parsed", False)),
            **{k: float(getattr(s, k)) for k in SCORES},
        }

    def report(self, records: list[dict[str, Any]]) -> str:
        from scratch_gym.nl2scratch.scoring import LABELS, METRICS
        from scratch_gym.records.text import table

        rows = []
        for agent, metrics in _metrics(records).items():
            rows.append([agent, *(_pct(metrics[m]) for m in METRICS), metrics["episodes"]])
        headers = ["agent", *(LABELS[m] for m in METRICS), "episodes"]
        return "NL2Scratch (%, paper protocol)\n" + table(headers, rows)

    def figures(self, records: list[dict[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for metrics in _metrics(records).values():
            out = {k: v for k, v in metrics.items() if k != "episodes"}
        return out


def _metrics(records: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Table 2's columns per agent from the records' per-episode scores."""
    from scratch_gym.nl2scratch.protocols import get_protocol
    from scratch_gym.nl2scratch.scoring import ExampleScores, aggregate
    from scratch_gym.records.status import is_counted

    by_agent: dict[str, list[ExampleScores]] = {}
    for r in records:
        if r.get("mode") != "nl2scratch" or not is_counted(r):
            continue
        scores = ExampleScores(
            key=r["task"],
            chosen=None,
            **{k: float(r.get(k) or 0.0) for k in SCORES},
        )
        by_agent.setdefault(r["agent"], []).append(scores)
    out = {}
    for agent, scores in by_agent.items():
        metrics, _ = aggregate(scores, get_protocol("paper"))
        out[agent] = {**metrics, "episodes": len(scores)}
    return out


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"
