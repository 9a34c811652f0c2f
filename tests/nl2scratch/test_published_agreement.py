"""The paper protocol gives the published scorer's results on all 2,400 shared prediction items.

Expected values come from the published scorer (doheejin/NL2Scratch) run as its README says on
the three prediction files (tests/fixtures/nl2scratch_published, see docs/nl2scratch.md). The
command under test is the user's: ``scratch-gym nl2scratch ... --json --items PATH``.
"""

from __future__ import annotations

import json
import math

import pytest

from .cases import (
    DIAG_800,
    PREDICTION_FILES,
    PREDICTIONS_DIR,
    PUBLISHED_FIXTURES,
    require_shared,
    run_cli,
)

TABLE2 = (
    "em", "f1", "ps", "sac_nl_avg", "sac_nl_perfect", "sac_nl_high", "sac_ref_avg",
    "sac_ref_perfect", "sac_ref_high",
)  # fmt: skip
SUMMARY = json.loads((PUBLISHED_FIXTURES / "summary.json").read_text(encoding="utf-8"))


def _close(got: float | None, want: float | None) -> bool:
    if got is None or want is None:
        return got is None and want is None
    return math.isclose(got, want, abs_tol=1e-9)


def _disagreements(got: dict, want: dict, slot_order: list[str]) -> list[str]:
    out = []
    for name in ("em", "f1", "ps", "sac_nl", "sac_ref"):
        if not _close(float(got[name]), float(want[name])):
            out.append(f"{name}: {got[name]} != {want[name]}")
    for side, field in (("sac_nl_slots", "nl_slots"), ("sac_ref_slots", "ref_slots")):
        for slot, expected in zip(slot_order, want[field], strict=True):
            if not _close(got[side].get(slot), expected):
                out.append(f"{side}.{slot}: {got[side].get(slot)} != {expected}")
    return out


@pytest.mark.parametrize("name", PREDICTION_FILES)
def test_every_item_and_the_json_line_equal_the_published_scorer(name, tmp_path, capsys) -> None:
    predictions = require_shared(PREDICTIONS_DIR / f"{name}.jsonl")
    items = tmp_path / "items.jsonl"
    code = run_cli("--references", str(require_shared(DIAG_800)), "--predictions",
                   str(predictions), "--prediction-field", "predicted_pseudocode", "--json",
                   "--bootstrap", "200", "--quiet", "--items", str(items))  # fmt: skip
    assert code == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    expected = SUMMARY["files"][name]
    assert result["protocol"] == "paper"
    for metric in TABLE2:
        assert result[metric] == pytest.approx(expected[metric], abs=1e-12), metric
        low, high = result["ci95"][metric]
        assert low <= result[metric] <= high, metric

    got_rows = [json.loads(line) for line in items.read_text(encoding="utf-8").splitlines()]
    want_rows = [
        json.loads(line)
        for line in (PUBLISHED_FIXTURES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert len(got_rows) == len(want_rows) == 800
    problems = {}
    for got, want in zip(got_rows, want_rows, strict=True):
        found = _disagreements(got, want, SUMMARY["slot_order"])
        if found:
            problems[got["key"]] = found
    assert not problems, f"{len(problems)} items differ, e.g. {list(problems.items())[:3]}"


def test_the_20_shot_row_of_the_paper_with_the_two_documented_switches(capsys) -> None:
    """Without post-processing and with loop slots in SAC_ref, as the paper's 20-shot row was
    computed (SAC_ref 99.11 / 88.25 / 99.12)."""
    alternate = SUMMARY["alternate"]["gpt41_diag800_20shot"]
    code = run_cli("--references", str(require_shared(DIAG_800)), "--predictions",
                   str(require_shared(PREDICTIONS_DIR / "gpt41_diag800_20shot.jsonl")),
                   "--prediction-field", "predicted_pseudocode", "--no-postprocess",
                   "--ref-loop-slots", "--json", "--bootstrap", "0", "--quiet")  # fmt: skip
    assert code == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["options"] == {"protocol": "paper", "postprocess": False, "ref_loop_slots": True}
    for metric in TABLE2:
        assert result[metric] == pytest.approx(alternate["metrics"][metric], abs=1e-12), metric
    assert [round(100 * result[m], 2) for m in TABLE2[-3:]] == [99.11, 88.25, 99.12]
