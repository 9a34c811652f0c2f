"""Reading NL2Scratch references and predictions, with a report of every input problem.

References (JSONL, one object per line: ``key``, ``nl``, ``pseudocode`` as a list of lines or a
string) must be well formed: a bad line raises :class:`ReferenceFileError` naming the line.

Predictions are read leniently, as the paper scores them: a reference without a usable prediction
is scored as an empty prediction (0 everywhere). Every problem is counted and named in an
:class:`InputReport`: lines that are not JSON or not objects, rows without ``key``, duplicate keys
(the first row is used), rows without the prediction field (named with the fields they have),
predictions that are empty or not text, and predictions for keys the references lack.

A prediction is a string or a list of lines; ``candidates`` holds several (strings, lists of lines,
or objects with ``text`` and optionally ``logprob_mean``/``logprob``), with optional
``candidate_logprobs`` (length-normalised log-likelihoods) for likelihood selection.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_FIELDS = ("prediction", "candidates", "predicted_pseudocode", "pseudocode")
PROBLEM_LABELS = {
    "undecodable_lines": "lines that are not UTF-8",
    "non_json_lines": "lines that are not JSON",
    "non_object_lines": "lines that are not JSON objects",
    "rows_without_key": "rows without a 'key'",
    "duplicate_keys": "duplicate keys (first row used)",
    "missing_field": "rows without the prediction field",
    "empty_predictions": "empty predictions",
    "invalid_predictions": "predictions that are not text",
    "unknown_keys": "keys not in the references",
    "missing_predictions": "references without a prediction",
}
MAX_NAMED = 10


class ReferenceFileError(ValueError):
    """A references file of the wrong shape (the message names the line)."""


@dataclass
class Example:
    """One reference with its candidate predictions (one unless reranking)."""

    key: str
    nl: str
    reference: list[str]
    candidates: list[str] = field(default_factory=lambda: [""])
    logprobs: list[float] | None = None


@dataclass
class InputReport:
    """Input problems by kind: each a count and the first few lines or keys, named."""

    problems: dict[str, list[str]] = field(default_factory=dict)

    def add(self, kind: str, name: str) -> None:
        self.problems.setdefault(kind, []).append(name)

    def count(self, kind: str) -> int:
        return len(self.problems.get(kind, []))

    def as_json(self) -> dict[str, dict[str, Any]]:
        return {
            kind: {"count": len(names), "examples": names[:MAX_NAMED]}
            for kind, names in self.problems.items()
            if names
        }

    def lines(self) -> list[str]:
        """Readable lines, one per kind of problem."""
        out = []
        for kind, names in self.problems.items():
            if names:
                shown = ", ".join(names[:MAX_NAMED]) + (", ..." if len(names) > MAX_NAMED else "")
                out.append(f"{PROBLEM_LABELS.get(kind, kind)}: {len(names)} ({shown})")
        return out


def _program_text(value: Any) -> str | None:
    """A program as one string, or None when ``value`` is not a string or a list of strings."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "\n".join(value)
    return None


def _lines(path: str | Path) -> list[tuple[int, str | None]]:
    """Numbered lines of a file, each decoded as UTF-8 (None when it is not; a BOM is skipped)."""
    with open(path, "rb") as handle:
        raw = handle.read().split(b"\n")
    out: list[tuple[int, str | None]] = []
    for number, data in enumerate(raw, 1):
        try:
            out.append((number, data.decode("utf-8-sig" if number == 1 else "utf-8")))
        except UnicodeDecodeError:
            out.append((number, None))
    return out


def read_references(source: str | Path | Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Validated reference rows; raises :class:`ReferenceFileError` naming the bad line."""
    if isinstance(source, (str, Path)):
        rows: list[tuple[int, Any]] = []
        for number, line in _lines(source):
            if line is None:
                raise ReferenceFileError(f"references line {number}: not UTF-8 text")
            if not line.strip():
                continue
            try:
                rows.append((number, json.loads(line)))
            except json.JSONDecodeError as exc:
                raise ReferenceFileError(
                    f"references line {number}: not JSON ({exc.msg}); each line must be an "
                    "object {key, nl, pseudocode}"
                ) from None
    else:
        rows = list(enumerate(source, 1))
    seen: set[str] = set()
    out = []
    for number, row in rows:
        where = f"references line {number}"
        if not isinstance(row, dict):
            raise ReferenceFileError(f"{where}: a {type(row).__name__}, expected an object "
                                     "{key, nl, pseudocode}")  # fmt: skip
        missing = [k for k in ("key", "nl", "pseudocode") if k not in row]
        if missing:
            raise ReferenceFileError(f"{where}: missing {', '.join(missing)} (has "
                                     f"{', '.join(sorted(row)) or 'nothing'})")  # fmt: skip
        if not isinstance(row["key"], (str, int)) or isinstance(row["key"], bool):
            raise ReferenceFileError(f"{where}: 'key' must be a string or an integer")
        if not isinstance(row["nl"], str):
            raise ReferenceFileError(f"{where}: 'nl' must be a string")
        if _program_text(row["pseudocode"]) is None:
            raise ReferenceFileError(
                f"{where}: 'pseudocode' must be a list of strings (lines) or a string"
            )
        key = str(row["key"])
        if key in seen:
            raise ReferenceFileError(f"{where}: duplicate key {key!r}")
        seen.add(key)
        out.append(row)
    if not out:
        raise ReferenceFileError("references: the file holds no examples")
    return out


def _read_prediction_rows(
    source: str | Path | Sequence[dict[str, Any]], report: InputReport
) -> list[tuple[int, dict[str, Any]]]:
    if not isinstance(source, (str, Path)):
        return list(enumerate(source, 1))
    rows = []
    for number, line in _lines(source):
        if line is None:
            report.add("undecodable_lines", f"line {number}")
            continue
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            report.add("non_json_lines", f"line {number}")
            continue
        if not isinstance(row, dict):
            report.add("non_object_lines", f"line {number}")
            continue
        rows.append((number, row))
    return rows


def _candidate(value: Any) -> tuple[str | None, float | None]:
    if isinstance(value, dict):
        logprob = value.get("logprob_mean", value.get("logprob"))
        ok = isinstance(logprob, (int, float)) and not isinstance(logprob, bool)
        return _program_text(value.get("text")), float(logprob) if ok else None
    return _program_text(value), None


def _candidates(
    row: dict[str, Any], name: str, key: str, report: InputReport
) -> tuple[list[str], list[float] | None]:
    """Candidate texts and log-probs of one row's field (``[""]`` for an unusable value)."""
    value = row[name]
    many = name == "candidates" or (
        isinstance(value, list) and any(isinstance(v, (list, dict)) for v in value)
    )
    if not many:
        text = _program_text(value)
        if text is None:
            report.add("invalid_predictions", key)
            return [""], None
        if not text.strip():
            report.add("empty_predictions", key)
        return [text], None
    if not isinstance(value, list) or not value:
        report.add("invalid_predictions" if not isinstance(value, list) else "empty_predictions",
                   key)  # fmt: skip
        return [""], None
    pairs = [_candidate(v) for v in value]
    if any(text is None for text, _ in pairs):
        report.add("invalid_predictions", key)
    texts = [text or "" for text, _ in pairs]
    logprobs: list[float] | None = [lp for _, lp in pairs if lp is not None]
    given = row.get("candidate_logprobs")
    if isinstance(given, list) and len(given) == len(texts):
        logprobs = [float(v) for v in given if isinstance(v, (int, float))]
    if logprobs is not None and len(logprobs) != len(texts):
        logprobs = None
    return texts, logprobs


def load_examples(
    references: str | Path | Sequence[dict[str, Any]],
    predictions: str | Path | Sequence[dict[str, Any]],
    prediction_field: str | None = None,
) -> tuple[list[Example], InputReport]:
    """Examples in reference order and the report of input problems."""
    ref_rows = read_references(references)
    report = InputReport()
    by_key: dict[str, dict[str, Any]] = {}
    for number, row in _read_prediction_rows(predictions, report):
        if "key" not in row:
            report.add("rows_without_key", f"line {number}")
            continue
        key = str(row["key"])
        if key in by_key:
            report.add("duplicate_keys", key)
            continue
        by_key[key] = row
    ref_keys = {str(r["key"]) for r in ref_rows}
    for key in by_key:
        if key not in ref_keys:
            report.add("unknown_keys", key)
    names = (prediction_field,) if prediction_field else DEFAULT_FIELDS
    examples = []
    for ref in ref_rows:
        key = str(ref["key"])
        example = Example(key, ref["nl"], _program_text(ref["pseudocode"]).splitlines())
        row = by_key.get(key)
        name = next((n for n in names if row is not None and n in row), None)
        if row is None:
            report.add("missing_predictions", key)
        elif name is None:
            fields = ", ".join(sorted(k for k in row if k != "key")) or "none"
            report.add("missing_field", f"{key} (fields: {fields})")
        else:
            example.candidates, example.logprobs = _candidates(row, name, key, report)
        examples.append(example)
    return examples, report
