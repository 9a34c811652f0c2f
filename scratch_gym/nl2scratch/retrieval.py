"""Retrieval in-context examples: the K TF-IDF-nearest of the examples file the user supplies.

The NL2Scratch paper prompts with the 20 training examples whose descriptions are nearest to the
query by TF-IDF; its training split is not published with the test set, so the examples
are the user's: a JSONL file, one object per line:

* ``nl`` (required): the description, a non-empty string;
* ``pseudocode`` (required): the program, a non-empty list of lines or a non-empty string;
* ``key`` (optional): a string or integer id, unique in the file.

Other fields are ignored; blank lines are skipped. A bad line raises :class:`ExamplesFileError`
naming the line and what is allowed.

Descriptions are vectorised with scikit-learn's ``TfidfVectorizer`` (its defaults: lower-cased
word unigrams, smoothed idf, L2-normalised rows) fitted on the examples, and ranked by cosine
similarity to the query (ties: file order). An example is never retrieved for itself:
entries with the query's key or with the query's exact description (stripped) are left out.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FORMAT = (
    "each line a JSON object with 'nl' (a non-empty string), 'pseudocode' (a non-empty list of "
    "strings or a non-empty string) and optionally 'key' (a string or an integer, unique)"
)


class ExamplesFileError(ValueError):
    """An examples file of the wrong shape (the message names the line)."""


@dataclass(frozen=True)
class RetrievalExample:
    """One in-context example: a description and its program (lines)."""

    nl: str
    program: tuple[str, ...]
    key: str | None = None


def _program(value: Any) -> tuple[str, ...] | None:
    if isinstance(value, str) and value.strip():
        return tuple(value.splitlines())
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        if any(v.strip() for v in value):
            return tuple(value)
    return None


def parse_example(row: Any, where: str) -> RetrievalExample:
    """One examples row, validated (``where`` names it in errors)."""
    if not isinstance(row, dict):
        raise ExamplesFileError(f"{where}: a {type(row).__name__}, expected an object ({FORMAT})")
    missing = [k for k in ("nl", "pseudocode") if k not in row]
    if missing:
        has = ", ".join(sorted(row)) or "nothing"
        raise ExamplesFileError(f"{where}: missing {', '.join(missing)} (has {has}; {FORMAT})")
    if not isinstance(row["nl"], str) or not row["nl"].strip():
        raise ExamplesFileError(f"{where}: 'nl' must be a non-empty string")
    program = _program(row["pseudocode"])
    if program is None:
        raise ExamplesFileError(
            f"{where}: 'pseudocode' must be a non-empty list of strings (lines) or a non-empty "
            "string"
        )
    key = row.get("key")
    if key is not None and (not isinstance(key, (str, int)) or isinstance(key, bool)):
        raise ExamplesFileError(f"{where}: 'key' must be a string or an integer")
    return RetrievalExample(row["nl"], program, None if key is None else str(key))


def read_examples(path: str | Path) -> list[RetrievalExample]:
    """The examples of an examples JSONL file (see the module docstring for its format)."""
    examples: list[RetrievalExample] = []
    keys: set[str] = set()
    with open(path, encoding="utf-8-sig") as handle:
        try:
            lines = list(enumerate(handle, 1))
        except UnicodeDecodeError as exc:
            raise ExamplesFileError(f"examples {path}: not UTF-8 text ({exc.reason})") from None
    for number, line in lines:
        if not line.strip():
            continue
        where = f"examples line {number}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ExamplesFileError(f"{where}: not JSON ({exc.msg}); {FORMAT}") from None
        example = parse_example(row, where)
        if example.key is not None:
            if example.key in keys:
                raise ExamplesFileError(f"{where}: duplicate key {example.key!r}")
            keys.add(example.key)
        examples.append(example)
    if not examples:
        raise ExamplesFileError(f"examples {path}: the file holds no example ({FORMAT})")
    return examples


class Retriever:
    """TF-IDF nearest neighbours of a description among the examples' descriptions."""

    def __init__(self, examples: Sequence[RetrievalExample]) -> None:
        if not examples:
            raise ValueError("the retrieval examples are empty")
        from sklearn.feature_extraction.text import TfidfVectorizer

        self.examples = list(examples)
        self.vectorizer = TfidfVectorizer()
        self.matrix = self.vectorizer.fit_transform([e.nl for e in self.examples])

    def nearest(self, nl: str, k: int, key: str | None = None) -> list[RetrievalExample]:
        """The ``k`` examples nearest to ``nl``, nearest first, never the query itself
        (same ``key``, or the same description); fewer when there are fewer others."""
        if k < 0:
            raise ValueError(f"k must be 0 or more, got {k}")
        if k == 0:
            return []
        import numpy as np

        scores = (self.matrix @ self.vectorizer.transform([nl]).T).toarray().ravel()
        text = nl.strip()
        order = np.argsort(-scores, kind="stable")
        out = []
        for i in order:
            example = self.examples[int(i)]
            if (key is not None and example.key == key) or example.nl.strip() == text:
                continue
            out.append(example)
            if len(out) == k:
                break
        return out
