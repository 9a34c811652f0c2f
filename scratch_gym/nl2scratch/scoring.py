"""NL2Scratch scoring: predictions against references, as the paper's Table 2 columns with bootstrap
95% confidence intervals.

Inputs are read by :mod:`~scratch_gym.nl2scratch.inputs` (references must be well formed;
prediction problems are reported and scored as missing predictions, i.e. empty programs). Scores
follow a :class:`~scratch_gym.nl2scratch.protocols.ScoringProtocol` (``paper`` by default, ``robust``).

Columns: EM, F1, PS (parse success; None when parsing is switched off or the robust protocol's
parser is not available), SAC_nl and SAC_ref as average, = 100% (perfect) and >= 85% (high); all
are fractions. Confidence intervals are percentile bootstrap 95% intervals over examples, seeded;
every column resamples the same examples.

With several candidates per example, one is chosen by a selection strategy
(:mod:`~scratch_gym.nl2scratch.selection`, ``sac`` by default) and, unless switched off, the
columns are also reported for every applicable strategy.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from scratch_gym.nl2scratch.inputs import (
    DEFAULT_FIELDS,
    Example,
    InputReport,
    ReferenceFileError,
    read_references,
)
from scratch_gym.nl2scratch.inputs import load_examples as _load_examples
from scratch_gym.nl2scratch.protocols import ScoringProtocol, get_protocol
from scratch_gym.nl2scratch.selection import STRATEGIES, SelectionError, select
from scratch_gym.progress import progress_bar

__all__ = [
    "DEFAULT_FIELDS",
    "METRICS",
    "BenchmarkResult",
    "Example",
    "ExampleScores",
    "ReferenceFileError",
    "score_examples",
    "format_table",
    "load_examples",
    "read_references",
    "rerank",
    "run_benchmark",
]

METRICS = (
    "em",
    "f1",
    "ps",
    "sac_nl_avg",
    "sac_nl_perfect",
    "sac_nl_high",
    "sac_ref_avg",
    "sac_ref_perfect",
    "sac_ref_high",
)
LABELS = {
    "em": "EM",
    "f1": "F1",
    "ps": "PS",
    "sac_nl_avg": "SAC_nl avg",
    "sac_nl_perfect": "SAC_nl =100%",
    "sac_nl_high": "SAC_nl >=85%",
    "sac_ref_avg": "SAC_ref avg",
    "sac_ref_perfect": "SAC_ref =100%",
    "sac_ref_high": "SAC_ref >=85%",
}


@dataclass
class ExampleScores:
    """Per-example scores; ``ps`` is None when parsing was not checked; slot scores are None
    where a slot was not comparable."""

    key: str
    chosen: int | None
    em: float
    f1: float
    ps: float | None
    sac_nl: float
    sac_ref: float
    sac_nl_slots: dict[str, float | None] = field(default_factory=dict)
    sac_ref_slots: dict[str, float | None] = field(default_factory=dict)
    reference_lines: int = 0


@dataclass
class BenchmarkResult:
    """Aggregates (fractions), their 95% intervals, per-example scores and input problems."""

    metrics: dict[str, float | None]
    intervals: dict[str, tuple[float, float] | None]
    examples: list[ExampleScores]
    protocol: ScoringProtocol = field(default_factory=get_protocol)
    report: InputReport = field(default_factory=InputReport)
    strategy: str | None = None
    selection: dict[str, dict[str, float | None]] = field(default_factory=dict)

    @property
    def missing(self) -> int:
        return self.report.count("missing_predictions")

    @property
    def unknown(self) -> int:
        return self.report.count("unknown_keys")

    def as_json(self) -> dict[str, Any]:
        """The JSON object the CLI prints last."""
        out: dict[str, Any] = {"protocol": self.protocol.name}
        out.update(self.metrics)
        out["ci95"] = {k: list(v) if v else None for k, v in self.intervals.items()}
        out["n"] = len(self.examples)
        out["options"] = self.protocol.describe()
        out["missing_predictions"] = self.missing
        out["unknown_predictions"] = self.unknown
        out["input_problems"] = self.report.as_json()
        if self.strategy is not None:
            out["selection_strategy"] = self.strategy
            out["selection"] = self.selection
        return out


def load_examples(
    references: str | Path | Sequence[dict[str, Any]],
    predictions: str | Path | Sequence[dict[str, Any]],
    prediction_field: str | None = None,
) -> tuple[list[Example], int, int]:
    """Examples in reference order, with the counts of missing and of unknown predictions."""
    examples, report = _load_examples(references, predictions, prediction_field)
    return examples, report.count("missing_predictions"), report.count("unknown_keys")


def parser_available(protocol: ScoringProtocol) -> bool:
    """Whether the protocol's parser can run (the robust one needs the program model)."""
    return protocol.parser.available()


def rerank(
    candidates: Sequence[Iterable[str] | str],
    description: str,
    parse_first: bool = False,
    protocol: ScoringProtocol | None = None,
) -> int:
    """Index of the candidate with the highest SAC_nl (first on ties); ``parse_first`` chooses
    among parser-accepted candidates first (strategies ``sac`` and ``parse_sac``)."""
    texts = [c if isinstance(c, str) else "\n".join(c) for c in candidates]
    if not texts:
        raise ValueError("rerank needs at least one candidate")
    strategy = "parse_sac" if parse_first else "sac"
    return select(strategy, texts, description, protocol or get_protocol("paper"))


def score_prediction(
    prediction: str, example: Example, protocol: ScoringProtocol, check_parse: bool
) -> ExampleScores:
    """Scores of one prediction of an example."""
    text = protocol.prepare(prediction)
    reference = "\n".join(example.reference)
    nl = protocol.sac_nl(text, example.nl)
    ref = protocol.sac_ref(text, reference)
    return ExampleScores(
        key=example.key,
        chosen=None,
        em=protocol.exact_match(text, reference),
        f1=protocol.token_f1(text, reference),
        ps=float(protocol.parse_success(text)) if check_parse else None,
        sac_nl=nl.score,
        sac_ref=ref.score,
        sac_nl_slots=dict(nl.slot_scores),
        sac_ref_slots=dict(ref.slot_scores),
        reference_lines=len([line for line in example.reference if line.strip()]),
    )


def score_example(
    example: Example, protocol: ScoringProtocol, check_parse: bool, strategy: str = "sac"
) -> ExampleScores:
    """Scores of one example, choosing a candidate first when it has several."""
    chosen = 0
    if len(example.candidates) > 1:
        chosen = select(strategy, example.candidates, example.nl, protocol, example.logprobs)
    scores = score_prediction(example.candidates[chosen], example, protocol, check_parse)
    scores.chosen = chosen if len(example.candidates) > 1 else None
    return scores


def columns(scores: list[ExampleScores], protocol: ScoringProtocol) -> dict[str, np.ndarray | None]:
    """Per-example values of each Table 2 column (None: not measured)."""
    nl = [s.sac_nl for s in scores]
    ref = [s.sac_ref for s in scores]
    ps = [s.ps for s in scores]
    return {
        "em": np.array([s.em for s in scores], dtype=float),
        "f1": np.array([s.f1 for s in scores], dtype=float),
        "ps": None if any(p is None for p in ps) else np.array(ps, dtype=float),
        "sac_nl_avg": np.array(nl, dtype=float),
        "sac_nl_perfect": np.array([protocol.perfect(v) for v in nl], dtype=float),
        "sac_nl_high": np.array([protocol.high(v) for v in nl], dtype=float),
        "sac_ref_avg": np.array(ref, dtype=float),
        "sac_ref_perfect": np.array([protocol.perfect(v) for v in ref], dtype=float),
        "sac_ref_high": np.array([protocol.high(v) for v in ref], dtype=float),
    }


def bootstrap_interval(
    values: np.ndarray, samples: int, rng: np.random.Generator
) -> tuple[float, float]:
    """Percentile bootstrap 95% interval of the mean."""
    n = len(values)
    if n == 0 or samples <= 0:
        return (float("nan"), float("nan"))
    means = np.empty(samples)
    for start in range(0, samples, 256):
        stop = min(samples, start + 256)
        idx = rng.integers(0, n, size=(stop - start, n))
        means[start:stop] = values[idx].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return (float(low), float(high))


def aggregate(
    scores: list[ExampleScores], protocol: ScoringProtocol, bootstrap: int = 0, seed: int = 0
) -> tuple[dict[str, float | None], dict[str, tuple[float, float] | None]]:
    """Column means and (with ``bootstrap`` samples) their 95% intervals."""
    cols = columns(scores, protocol)
    metrics: dict[str, float | None] = {}
    intervals: dict[str, tuple[float, float] | None] = {}
    for name in METRICS:
        values = cols[name]
        if values is None or len(values) == 0:
            metrics[name], intervals[name] = None, None
            continue
        metrics[name] = float(sum(values.tolist()) / len(values))
        # One generator per column, seeded alike: every column resamples the same examples.
        intervals[name] = (
            bootstrap_interval(values, bootstrap, np.random.default_rng(seed))
            if bootstrap > 0
            else None
        )
    return metrics, intervals


def _strategy_table(
    examples: list[Example], protocol: ScoringProtocol, check_parse: bool, progress: bool
) -> dict[str, dict[str, float | None]]:
    """Table 2 columns for every strategy that applies to all examples."""
    table: dict[str, dict[str, float | None]] = {}
    for strategy in STRATEGIES:
        if strategy.startswith("parse_") and not check_parse:
            continue
        try:
            scores = [
                score_example(ex, protocol, check_parse, strategy)
                for ex in progress_bar(examples, desc=f"select {strategy}", disable=not progress)
            ]
        except SelectionError:
            continue
        table[strategy] = aggregate(scores, protocol)[0]
    return table


def score_examples(
    examples: list[Example],
    *,
    protocol: ScoringProtocol | str = "paper",
    check_parse: bool | None = None,
    strategy: str = "sac",
    parse_first: bool = False,
    compare_strategies: bool = True,
    bootstrap: int = 1000,
    seed: int = 0,
    progress: bool = True,
    report: InputReport | None = None,
) -> BenchmarkResult:
    """Scores every example and aggregates the Table 2 columns with bootstrap intervals."""
    if isinstance(protocol, str):
        protocol = get_protocol(protocol)
    if parse_first and strategy == "sac":
        strategy = "parse_sac"
    if check_parse is None:
        check_parse = parser_available(protocol)
    if strategy.startswith("parse_") and not check_parse:
        raise SelectionError(f"{strategy} selection needs parsing (do not pass --no-parse)")
    scores = [
        score_example(ex, protocol, check_parse, strategy)
        for ex in progress_bar(examples, desc="nl2scratch", disable=not progress, unit="ex")
    ]
    metrics, intervals = aggregate(scores, protocol, bootstrap, seed)
    result = BenchmarkResult(metrics, intervals, scores, protocol, report or InputReport())
    if any(len(ex.candidates) > 1 for ex in examples):
        result.strategy = strategy
        if compare_strategies:
            result.selection = _strategy_table(examples, protocol, check_parse, progress)
    return result


def run_benchmark(
    references: str | Path,
    predictions: str | Path,
    prediction_field: str | None = None,
    **kwargs: Any,
) -> BenchmarkResult:
    """Loads the two files and evaluates them (see :func:`score_examples` for options)."""
    examples, report = _load_examples(references, predictions, prediction_field)
    return score_examples(examples, report=report, **kwargs)


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}"


def format_table(result: BenchmarkResult) -> str:
    """A readable table of the columns, as percentages with their 95% intervals."""
    options = result.protocol.describe()
    head = f"protocol: {result.protocol.name} (post-processing {'on' if options['postprocess'] else 'off'}"
    if options["ref_loop_slots"] is not None:
        head += f", SAC_ref loop slots {'on' if options['ref_loop_slots'] else 'off'}"
    rows = [head + ")", f"{'metric':<15}{'value':>9}   95% CI", "-" * 40]
    for name in METRICS:
        value, interval = result.metrics[name], result.intervals[name]
        if value is None:
            rows.append(f"{LABELS[name]:<15}{'n/a':>9}")
            continue
        ci = f"[{100 * interval[0]:.1f}, {100 * interval[1]:.1f}]" if interval else ""
        rows.append(f"{LABELS[name]:<15}{100 * value:>8.1f}%   {ci}")
    rows.append(f"examples: {len(result.examples)}  missing predictions: {result.missing}")
    if result.selection:
        rows.append("")
        rows.append(f"selection over candidates (scored: {result.strategy})")
        rows.append(f"{'strategy':<18}" + "".join(f"{LABELS[m]:>15}" for m in METRICS))
        for strategy, metrics in result.selection.items():
            rows.append(f"{strategy:<18}" + "".join(f"{_percent(metrics[m]):>15}" for m in METRICS))
    problems = result.report.lines()
    if problems:
        rows.append("")
        rows.append(
            "input problems (a reference without a usable prediction scores as an empty one):"
        )
        rows.extend(f"  {line}" for line in problems)
    return "\n".join(rows)


def write_items(result: BenchmarkResult, path: str | Path) -> None:
    """Per-example scores as JSONL (one object per example, in reference order)."""
    with open(path, "w", encoding="utf-8") as handle:
        for s in result.examples:
            handle.write(json.dumps(s.__dict__, ensure_ascii=False) + "\n")
