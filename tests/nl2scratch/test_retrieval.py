"""Retrieval in-context examples: the K TF-IDF-nearest examples, never the query itself,
and an examples file format whose bad lines are named."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from scratch_gym.nl2scratch.retrieval import (
    ExamplesFileError,
    RetrievalExample,
    Retriever,
    read_examples,
)

K = 20


def examples_of(rows: list[dict]) -> list[RetrievalExample]:
    return [RetrievalExample(r["nl"], tuple(r["pseudocode"]), r["key"]) for r in rows]


def test_leave_one_out_over_the_800_items_never_retrieves_the_item_itself(diag800):
    retriever = Retriever(examples_of(diag800))
    for row in diag800:
        shots = retriever.nearest(row["nl"], K, key=row["key"])
        assert len(shots) == K
        assert all(s.key != row["key"] and s.nl.strip() != row["nl"].strip() for s in shots)
        assert len({s.key for s in shots}) == K


def test_neighbours_are_in_order_of_tf_idf_cosine_similarity(diag800):
    retriever = Retriever(examples_of(diag800))
    query = diag800[17]
    shots = retriever.nearest(query["nl"], K, key=query["key"])
    vectors = retriever.vectorizer.transform([query["nl"]] + [s.nl for s in shots])
    sims = (vectors[1:] @ vectors[0].T).toarray().ravel()
    assert np.all(np.diff(sims) <= 1e-12)  # nearest first
    # nothing left out is nearer than the K-th neighbour (the query itself excepted)
    all_sims = (retriever.matrix @ vectors[0].T).toarray().ravel()
    others = [i for i, r in enumerate(diag800) if r["key"] != query["key"]]
    assert sorted(all_sims[others], reverse=True)[K - 1] == pytest.approx(sims[-1])


def test_an_identical_description_under_another_key_is_not_retrieved():
    examples = [
        RetrievalExample(
            "When the green flag is clicked, move 10 steps.", ("move (10) steps",), "a"
        ),
        RetrievalExample(
            "When the green flag is clicked, move 10 steps.", ("move (10) steps",), "b"
        ),
        RetrievalExample("When space is pressed, move 10 steps.", ("move (10) steps",), "c"),
        RetrievalExample("Say hello.", ("say [hello]",), None),
    ]
    shots = Retriever(examples).nearest(
        "When the green flag is clicked, move 10 steps.", 3, key="a"
    )
    assert [s.key for s in shots] == ["c", None]  # "b" has the query's text: left out too
    assert Retriever(examples).nearest("move", 0) == []


def write(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "examples.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


GOOD = json.dumps({"key": "a", "nl": "Move.", "pseudocode": ["move (10) steps"]})


def test_an_examples_file_is_read_with_string_or_list_programs_and_optional_keys(tmp_path):
    path = write(tmp_path, GOOD, "", json.dumps({"nl": "Hide.", "pseudocode": "hide\nshow"}))
    examples = read_examples(path)
    assert examples == [
        RetrievalExample("Move.", ("move (10) steps",), "a"),
        RetrievalExample("Hide.", ("hide", "show"), None),
    ]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", "examples line 2: not JSON"),
        ("[1, 2]", "examples line 2: a list, expected an object"),
        (json.dumps({"nl": "x"}), "examples line 2: missing pseudocode (has nl;"),
        (json.dumps({"nl": "", "pseudocode": ["hide"]}), "'nl' must be a non-empty string"),
        (json.dumps({"nl": "x", "pseudocode": []}), "'pseudocode' must be a non-empty list"),
        (json.dumps({"nl": "x", "pseudocode": [1]}), "'pseudocode' must be a non-empty list"),
        (json.dumps({"nl": "x", "pseudocode": "hide", "key": 1.5}), "'key' must be a string"),
        (GOOD, "examples line 2: duplicate key 'a'"),
    ],
)
def test_a_bad_examples_line_is_named_with_what_is_allowed(tmp_path, line, message):
    with pytest.raises(ExamplesFileError) as err:
        read_examples(write(tmp_path, GOOD, line))
    assert message in str(err.value)


def test_an_empty_examples_file_is_an_error(tmp_path):
    with pytest.raises(ExamplesFileError, match="holds no example"):
        read_examples(write(tmp_path, "", ""))
