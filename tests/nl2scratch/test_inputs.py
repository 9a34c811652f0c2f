"""Bad input: predictions problems are counted, named and scored as missing predictions;
references of the wrong shape are rejected with the line number."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scratch_gym.nl2scratch.inputs import ReferenceFileError, load_examples

from .cases import WORKED_DESCRIPTION, WORKED_PROGRAM, run_cli

PROGRAM = "\n".join(WORKED_PROGRAM)


def _refs(tmp_path: Path, n: int = 6) -> Path:
    path = tmp_path / "refs.jsonl"
    rows = [{"key": f"k{i}", "nl": WORKED_DESCRIPTION, "pseudocode": WORKED_PROGRAM}
            for i in range(n)]  # fmt: skip
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_every_kind_of_prediction_problem_is_counted_named_and_scored_as_missing(
    tmp_path: Path, capsys
) -> None:
    preds = tmp_path / "preds.jsonl"
    preds.write_text(
        "\n".join(
            [
                json.dumps({"key": "k0", "prediction": PROGRAM}),
                json.dumps({"key": "k0", "prediction": "when this sprite clicked"}),  # duplicate
                "{not json",
                json.dumps(["a", "list"]),
                json.dumps({"prediction": PROGRAM}),  # no key
                json.dumps({"key": "k1", "prediction": "   "}),  # empty
                json.dumps({"key": "k2", "output": PROGRAM}),  # another field name
                json.dumps({"key": "k3", "prediction": 42}),  # not text
                json.dumps({"key": "zz", "prediction": PROGRAM}),  # unknown key
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    code = run_cli("--references", str(_refs(tmp_path)), "--predictions", str(preds), "--json",
                   "--bootstrap", "0", "--quiet")  # fmt: skip
    assert code == 0
    out = capsys.readouterr().out.strip().splitlines()
    result = json.loads(out[-1])
    problems = result["input_problems"]
    assert problems["duplicate_keys"] == {"count": 1, "examples": ["k0"]}
    assert problems["non_json_lines"] == {"count": 1, "examples": ["line 3"]}
    assert problems["non_object_lines"] == {"count": 1, "examples": ["line 4"]}
    assert problems["rows_without_key"] == {"count": 1, "examples": ["line 5"]}
    assert problems["empty_predictions"] == {"count": 1, "examples": ["k1"]}
    assert problems["missing_field"] == {"count": 1, "examples": ["k2 (fields: output)"]}
    assert problems["invalid_predictions"] == {"count": 1, "examples": ["k3"]}
    assert problems["unknown_keys"] == {"count": 1, "examples": ["zz"]}
    assert problems["missing_predictions"] == {"count": 2, "examples": ["k4", "k5"]}
    assert result["missing_predictions"] == 2 and result["unknown_predictions"] == 1
    # k0 (the first row) is the only usable prediction; the five others score 0 everywhere
    assert result["em"] == pytest.approx(1 / 6) and result["sac_ref_avg"] == pytest.approx(1 / 6)
    assert result["f1"] == pytest.approx(1 / 6) and result["ps"] == pytest.approx(1 / 6)
    table = "\n".join(out[:-1])
    assert "duplicate keys (first row used): 1 (k0)" in table
    assert "rows without the prediction field: 1 (k2 (fields: output))" in table


def test_a_field_no_row_has_scores_everything_as_missing_and_says_so(tmp_path: Path) -> None:
    rows = [{"key": f"k{i}", "predicted_pseudocode": PROGRAM} for i in range(6)]
    examples, report = load_examples(_refs(tmp_path), rows, prediction_field="prediction")
    assert report.count("missing_field") == 6
    assert all(ex.candidates == [""] for ex in examples)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{oops", "references line 2: not JSON"),
        ('["a"]', "references line 2: a list, expected an object"),
        ('{"key": "b", "nl": "x"}', "references line 2: missing pseudocode (has key, nl)"),
        ('{"key": "b", "nl": "x", "pseudocode": [1, 2]}', "references line 2: 'pseudocode'"),
        ('{"key": "a", "nl": "x", "pseudocode": "hide"}', "references line 2: duplicate key"),
        ('{"key": "b", "nl": 3, "pseudocode": "hide"}', "references line 2: 'nl' must be"),
    ],
)
def test_references_of_the_wrong_shape_are_rejected_with_the_line(
    tmp_path: Path, capsys, line: str, message: str
) -> None:
    refs = tmp_path / "refs.jsonl"
    refs.write_text('{"key": "a", "nl": "x", "pseudocode": ["hide"]}\n' + line + "\n")
    with pytest.raises(ReferenceFileError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_examples(refs, [])
    assert run_cli("--references", str(refs), "--predictions", str(refs), "--quiet") == 2
    assert message in capsys.readouterr().err


def test_missing_files_and_bad_options_exit_with_a_message(tmp_path: Path, capsys) -> None:
    refs = _refs(tmp_path)
    assert run_cli("--references", str(refs), "--predictions", str(tmp_path / "no.jsonl")) == 2
    assert "no.jsonl" in capsys.readouterr().err
    assert run_cli("--references", str(refs), "--predictions", str(refs), "--bootstrap", "-1") == 2
    assert "--bootstrap" in capsys.readouterr().err
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(
        b'\xef\xbb\xbf{"key": "a", "nl": "x", "pseudocode": "hide"}\n{"key": "b\xe9"}\n'
    )
    assert run_cli("--references", str(latin), "--predictions", str(refs)) == 2
    assert "references line 2: not UTF-8 text" in capsys.readouterr().err
    assert run_cli("--references", str(refs), "--predictions", str(latin), "--json", "--quiet",
                   "--bootstrap", "0") == 0  # fmt: skip
    problems = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["input_problems"]
    assert problems["undecodable_lines"] == {"count": 1, "examples": ["line 2"]}
    assert problems["unknown_keys"] == {"count": 1, "examples": ["a"]}  # BOM line read
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    assert run_cli("--references", str(empty), "--predictions", str(refs)) == 2
    assert "no examples" in capsys.readouterr().err
