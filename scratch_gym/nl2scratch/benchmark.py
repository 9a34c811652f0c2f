"""NL2Scratch benchmark runner: the paper's Table 2 columns with bootstrap confidence intervals.

Inputs:

* references: JSONL of ``{key, nl, pseudocode}`` (``pseudocode`` a list of lines or a string);
* predictions: JSONL with ``key`` and the program under ``prediction`` (a string or a list of
  lines), or several programs under ``candidates`` for SAC reranking. Another field can be named
  (``prediction_field``); without one, the first present of ``prediction``, ``candidates``,
  ``predicted_pseudocode`` and ``pseudocode`` is used. A field holding a list of programs (lists)
  or named ``candidates`` is read as candidates.

Rules: a reference without a prediction counts as an empty prediction (it scores 0 everywhere);
predictions for unknown keys are ignored and counted. SAC reranking picks the candidate with the
highest SAC_nl against the reference description (the first one on ties); with ``parse_first`` it
picks among the candidates the parser accepts, falling back to all when none parses.

Columns: EM, F1, PS (parse success; None when the program-model parser is not available or parsing
is switched off), SAC_nl and SAC_ref as average, = 100% (perfect) and >= 85% (high); all are
fractions. Confidence intervals are percentile bootstrap 95% intervals over examples, seeded.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from scratch_gym.nl2scratch.metrics import exact_match, parse_success, token_f1
from scratch_gym.nl2scratch.sac import sac_nl, sac_ref
from scratch_gym.nl2scratch.text import program_lines

DEFAULT_FIELDS = ("prediction", "candidates", "predicted_pseudocode", "pseudocode")
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


@dataclass
class Example:
    """One reference with its prediction or candidates."""

    key: str
    nl: str
    reference: list[str]
    candidates: list[list[str]] = field(default_factory=list)


@dataclass
class ExampleScores:
    """Per-example scores; ``ps`` is None when parsing was not checked."""

    key: str
    chosen: int | None
    em: float
    f1: float
    ps: float | None
    sac_nl: float
    sac_ref: float


@dataclass
class BenchmarkResult:
    """Aggregates (fractions), their 95% intervals, and the per-example scores."""

    metrics: dict[str, float | None]
    intervals: dict[str, tuple[float, float] | None]
    examples: list[ExampleScores]
    missing: int = 0
    unknown: int = 0

    def as_json(self) -> dict[str, Any]:
        """The JSON object the CLI prints last."""
        out: dict[str, Any] = dict(self.metrics)
        out["ci95"] = {k: list(v) if v else None for k, v in self.intervals.items()}
        out["n"] = len(self.examples)
        out["missing_predictions"] = self.missing
        out["unknown_predictions"] = self.unknown
        return out


def read_jsonl(path: str | Path) -> list[dict[str, Any]]:
    """The JSON objects of a JSONL file (blank lines skipped)."""
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _as_program(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return program_lines(value)
    return program_lines([str(v) for v in value])


def _candidates(row: dict[str, Any], field_name: str | None) -> list[list[str]]:
    names = (field_name,) if field_name else DEFAULT_FIELDS
    for name in names:
        if name in row:
            value = row[name]
            many = name == "candidates" or (
                isinstance(value, list) and any(isinstance(v, list) for v in value)
            )
            if many and isinstance(value, list):
                return [_as_program(v) for v in value]
            return [_as_program(value)]
    return [[]]


def load_examples(
    references: str | Path | Sequence[dict[str, Any]],
    predictions: str | Path | Sequence[dict[str, Any]],
    prediction_field: str | None = None,
) -> tuple[list[Example], int, int]:
    """Examples in reference order, with the count of missing and of unknown predictions."""
    ref_rows = read_jsonl(references) if isinstance(references, (str, Path)) else references
    pred_rows = read_jsonl(predictions) if isinstance(predictions, (str, Path)) else predictions
    by_key = {str(row["key"]): row for row in pred_rows}
    examples: list[Example] = []
    missing = 0
    for row in ref_rows:
        key = str(row["key"])
        pred = by_key.get(key)
        if pred is None:
            missing += 1
            candidates: list[list[str]] = [[]]
        else:
            candidates = _candidates(pred, prediction_field) or [[]]
        examples.append(
            Example(key, str(row.get("nl", "")), _as_program(row["pseudocode"]), candidates)
        )
    ref_keys = {str(row["key"]) for row in ref_rows}
    unknown = sum(1 for key in by_key if key not in ref_keys)
    return examples, missing, unknown


def parser_available() -> bool:
    """Whether the program model's parser can be imported."""
    try:
        from scratch_gym.program import ScratchblocksError, parse_scripts  # noqa: F401
    except ImportError:
        return False
    return True


def rerank(
    candidates: Sequence[Iterable[str] | str], description: str, parse_first: bool = False
) -> int:
    """Index of the candidate with the highest SAC_nl (first on ties).

    With ``parse_first`` only parser-valid candidates compete, unless none is valid.
    """
    if not candidates:
        raise ValueError("rerank needs at least one candidate")
    pool = list(range(len(candidates)))
    if parse_first:
        valid = [i for i in pool if parse_success(candidates[i])]
        pool = valid or pool
    scores = {i: sac_nl(candidates[i], description).score for i in pool}
    return max(pool, key=lambda i: (scores[i], -i))


def score_example(example: Example, check_parse: bool, parse_first: bool) -> ExampleScores:
    """Scores of one example (reranking first when it has several candidates)."""
    chosen = 0
    if len(example.candidates) > 1:
        chosen = rerank(example.candidates, example.nl, parse_first and check_parse)
    prediction = example.candidates[chosen]
    return ExampleScores(
        key=example.key,
        chosen=chosen if len(example.candidates) > 1 else None,
        em=float(exact_match(prediction, example.reference)),
        f1=token_f1(prediction, example.reference),
        ps=float(parse_success(prediction)) if check_parse else None,
        sac_nl=sac_nl(prediction, example.nl).score,
        sac_ref=sac_ref(prediction, example.reference).score,
    )


def _columns(scores: list[ExampleScores]) -> dict[str, np.ndarray | None]:
    nl = np.array([s.sac_nl for s in scores], dtype=float)
    ref = np.array([s.sac_ref for s in scores], dtype=float)
    ps = [s.ps for s in scores]
    return {
        "em": np.array([s.em for s in scores], dtype=float),
        "f1": np.array([s.f1 for s in scores], dtype=float),
        "ps": None if any(p is None for p in ps) else np.array(ps, dtype=float),
        "sac_nl_avg": nl,
        "sac_nl_perfect": np.isclose(nl, 1.0).astype(float),
        "sac_nl_high": (nl >= 0.85 - 1e-12).astype(float),
        "sac_ref_avg": ref,
        "sac_ref_perfect": np.isclose(ref, 1.0).astype(float),
        "sac_ref_high": (ref >= 0.85 - 1e-12).astype(float),
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


def evaluate(
    examples: list[Example],
    *,
    check_parse: bool | None = None,
    parse_first: bool = False,
    bootstrap: int = 1000,
    seed: int = 0,
    progress: bool = True,
) -> BenchmarkResult:
    """Scores every example and aggregates the Table 2 columns with bootstrap intervals."""
    if check_parse is None:
        check_parse = parser_available()
    scores = [
        score_example(ex, check_parse, parse_first)
        for ex in tqdm(examples, desc="nl2scratch", disable=not progress, unit="ex")
    ]
    columns = _columns(scores)
    metrics: dict[str, float | None] = {}
    intervals: dict[str, tuple[float, float] | None] = {}
    for name in METRICS:
        values = columns[name]
        if values is None or len(values) == 0:
            metrics[name], intervals[name] = None, None
            continue
        metrics[name] = float(values.mean())
        # One generator per column, seeded alike: every column resamples the same examples.
        intervals[name] = bootstrap_interval(values, bootstrap, np.random.default_rng(seed))
    return BenchmarkResult(metrics, intervals, scores)


def run_benchmark(
    references: str | Path,
    predictions: str | Path,
    prediction_field: str | None = None,
    **kwargs: Any,
) -> BenchmarkResult:
    """Loads the two files and evaluates them (see :func:`evaluate` for options)."""
    examples, missing, unknown = load_examples(references, predictions, prediction_field)
    result = evaluate(examples, **kwargs)
    result.missing, result.unknown = missing, unknown
    return result


def format_table(result: BenchmarkResult) -> str:
    """A readable table of the columns, as percentages with their 95% intervals."""
    labels = {
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
    rows = [f"{'metric':<15}{'value':>9}   95% CI", "-" * 40]
    for name in METRICS:
        value, interval = result.metrics[name], result.intervals[name]
        if value is None:
            rows.append(f"{labels[name]:<15}{'n/a':>9}")
            continue
        ci = f"[{100 * interval[0]:.1f}, {100 * interval[1]:.1f}]" if interval else ""
        rows.append(f"{labels[name]:<15}{100 * value:>8.1f}%   {ci}")
    rows.append(f"examples: {len(result.examples)}  missing predictions: {result.missing}")
    return "\n".join(rows)
