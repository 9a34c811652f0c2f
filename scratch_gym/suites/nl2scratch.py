"""The NL2Scratch suite (``nl2scratch``): write a program for a description, loaded into the real
editor; reported with the paper's columns (EM, F1, PS, SAC_nl, SAC_ref) under its scoring protocol,
with 95% percentile-bootstrap intervals, per agent and generation protocol
(:mod:`~scratch_gym.nl2scratch.generation`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scratch_gym.suites.base import Suite, select_among

SCORES = ("em", "f1", "ps", "sac_nl", "sac_ref")
BOOTSTRAP_SAMPLES = 1000
BOOTSTRAP_SEED = 0


@dataclass(frozen=True)
class ProgramSuite(Suite):
    """The items of ``references`` (a JSONL of ``{key, nl, pseudocode}``), or without it the
    shipped tasks as descriptions with their golden scripts as references. Success: the program
    matches the reference exactly (EM, after the paper protocol's normalisation). ``protocol``:
    the generation protocol (``retry`` by default, or ``paper``), which sets the environment's
    attempts and is recorded in every result row."""

    references: str | None = None
    protocol: str | None = None
    name = "nl2scratch"
    modes = ("nl2scratch",)

    def __post_init__(self) -> None:
        from scratch_gym.nl2scratch.generation import get_generation_protocol

        get_generation_protocol(self.protocol)  # a ValueError naming the allowed ones

    @property
    def generation(self) -> str:
        from scratch_gym.nl2scratch.generation import get_generation_protocol

        return get_generation_protocol(self.protocol).name

    @property
    def variant(self) -> str:
        return "" if self.protocol is None else self.generation

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
        return select_among(self._items(), categories, task_ids)

    def load(self, task_id: str) -> Any:
        return self._items([task_id])[0]

    def make_env(self, mode: str, env_spec: Any) -> Any:
        from scratch_gym.envs.program import ProgramEnv

        self.check_mode(mode)
        return ProgramEnv(render_mode="rgb_array", protocol=self.generation)

    def judge(self, task: Any, info: dict[str, Any], action: Any = None) -> dict[str, Any]:
        from scratch_gym.nl2scratch.episodes import score_program
        from scratch_gym.nl2scratch.protocols import get_protocol

        program = action if isinstance(action, str) else "\n".join(action or [])
        s = score_program(program, task.instruction, list(task.reference), get_protocol("paper"))
        return {
            "success": bool(s["em"]),
            "psr": float(s["sac_ref"]),
            "parsed": bool(info.get("parsed", False)),
            "protocol": self.generation,
            "sac_protocol": s["sac_protocol"],
            "item_key": task.key or task.id,
            **{k: float(s[k]) for k in SCORES},
        }

    def report(self, records: list[dict[str, Any]]) -> str:
        from scratch_gym.nl2scratch.generation import get_generation_protocol
        from scratch_gym.nl2scratch.scoring import LABELS, METRICS
        from scratch_gym.records.text import table

        groups = _metrics(records)
        rows = []
        for (agent, protocol, shots, samples), m in groups.items():
            cells = [_pct(m[k], m["ci95"][k]) for k in METRICS]
            rows.append([agent, protocol, shots, samples, *cells, m["episodes"]])
        headers = [
            "agent",
            "protocol",
            "shots",
            "samples",
            *(LABELS[k] for k in METRICS),
            "episodes",
        ]
        protocols = sorted({key[1] for key in groups})
        title = (
            f"NL2Scratch, generation protocol {', '.join(protocols) or '-'} (%, paper scoring "
            f"protocol, 95% bootstrap CI: {BOOTSTRAP_SAMPLES} resamples, seed {BOOTSTRAP_SEED})"
        )
        notes = [f"  {get_generation_protocol(p).describe()}" for p in protocols]
        return "\n".join([title, *notes, table(headers, rows)])

    def figures(self, records: list[dict[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for (_, protocol, shots, samples), metrics in _metrics(records).items():
            out = {k: v for k, v in metrics.items() if k != "episodes"}
            out.update(protocol=protocol, shots=shots, samples=samples)
            out["bootstrap"] = {"samples": BOOTSTRAP_SAMPLES, "seed": BOOTSTRAP_SEED}
        return out


def _metrics(records: list[dict[str, Any]]) -> dict[tuple[str, str, int, int], dict[str, Any]]:
    """Table 2's columns with their 95% intervals (``ci95``) per agent, generation protocol,
    shots and samples, from the records' per-episode scores (rows written before protocols were
    recorded count as ``retry``)."""
    from scratch_gym.nl2scratch.generation import DEFAULT_GENERATION
    from scratch_gym.nl2scratch.protocols import get_protocol
    from scratch_gym.nl2scratch.scoring import ExampleScores, aggregate
    from scratch_gym.records.status import is_counted

    groups: dict[tuple[str, str, int, int], list[ExampleScores]] = {}
    for r in records:
        if r.get("mode") != "nl2scratch" or not is_counted(r):
            continue
        scores = ExampleScores(
            key=r["task"],
            chosen=None,
            **{k: float(r.get(k) or 0.0) for k in SCORES},
        )
        key = (
            r["agent"],
            str(r.get("protocol") or DEFAULT_GENERATION),
            int(r.get("shots") or 0),
            int(r.get("samples") or 1),
        )
        groups.setdefault(key, []).append(scores)
    out = {}
    for key, scores in groups.items():
        metrics, intervals = aggregate(
            scores, get_protocol("paper"), BOOTSTRAP_SAMPLES, BOOTSTRAP_SEED
        )
        ci95 = {k: list(v) if v else None for k, v in intervals.items()}
        out[key] = {**metrics, "ci95": ci95, "episodes": len(scores)}
    return out


def _pct(value: float | None, interval: list[float] | None = None) -> str:
    if value is None:
        return "-"
    ci = f" [{100 * interval[0]:.1f}, {100 * interval[1]:.1f}]" if interval else ""
    return f"{100 * value:.1f}{ci}"
