"""Choosing among candidates with the paper's five strategies, from the CLI and the API."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scratch_gym.nl2scratch import get_protocol, select
from scratch_gym.nl2scratch.selection import SelectionError

from .cases import WORKED_DESCRIPTION, WORKED_PROGRAM, run_cli

GOOD = "\n".join(WORKED_PROGRAM)
UNPARSABLE = GOOD + "\n// done"  # the same SAC_nl; the published parser rejects comments
WRONG = "when this sprite clicked\nsay [Hello!] for (2) seconds"
PAPER = get_protocol("paper")


def test_the_five_strategies_pick_as_the_paper_defines() -> None:
    candidates = [WRONG, UNPARSABLE, GOOD]
    logprobs = [-0.1, -0.2, -0.9]
    pick = {s: select(s, candidates, WORKED_DESCRIPTION, PAPER, logprobs) for s in
            ("first", "likelihood", "sac", "parse_likelihood", "parse_sac")}  # fmt: skip
    # sac ties between UNPARSABLE and GOOD: the first wins; parse_sac drops UNPARSABLE
    assert pick == {"first": 0, "likelihood": 0, "sac": 1, "parse_likelihood": 0, "parse_sac": 2}
    assert select("parse_likelihood", [UNPARSABLE, GOOD], "", PAPER, [-0.1, -0.5]) == 1
    # candidates are parsed as generated: a doubled space fails the published line patterns
    assert select("parse_sac", [GOOD.replace("move (10)", "move  (10)"), GOOD], "", PAPER) == 1
    # none parses: parse_* fall back to the whole set
    assert select("parse_likelihood", ["x", "y"], "", PAPER, [-0.5, -0.1]) == 1
    with pytest.raises(SelectionError, match="log-prob"):
        select("likelihood", candidates, WORKED_DESCRIPTION, PAPER)
    with pytest.raises(SelectionError, match="unknown strategy"):
        select("best", candidates, WORKED_DESCRIPTION, PAPER)


def test_cli_scores_the_chosen_candidate_and_tables_every_strategy(tmp_path: Path, capsys) -> None:
    refs = tmp_path / "refs.jsonl"
    refs.write_text(
        json.dumps({"key": "k", "nl": WORKED_DESCRIPTION, "pseudocode": WORKED_PROGRAM})
    )
    preds = tmp_path / "preds.jsonl"
    candidates = [{"text": WRONG, "logprob_mean": -0.1}, {"text": UNPARSABLE, "logprob_mean": -0.2},
                  {"text": GOOD, "logprob_mean": -0.9}]  # fmt: skip
    preds.write_text(json.dumps({"key": "k", "candidates": candidates}))
    assert run_cli("--references", str(refs), "--predictions", str(preds), "--select",
                   "parse_sac", "--json", "--bootstrap", "0", "--quiet") == 0  # fmt: skip
    out = capsys.readouterr().out.strip().splitlines()
    result = json.loads(out[-1])
    assert result["selection_strategy"] == "parse_sac" and result["em"] == 1.0
    table = result["selection"]
    assert list(table) == ["first", "likelihood", "sac", "parse_likelihood", "parse_sac"]
    assert table["first"]["em"] == table["likelihood"]["em"] == 0.0
    assert table["sac"]["ps"] == 0.0 and table["parse_sac"]["ps"] == 1.0
    assert "selection over candidates (scored: parse_sac)" in "\n".join(out)

    # without log-probs the likelihood strategies are left out of the table, and asking for
    # one is a clear error
    preds.write_text(json.dumps({"key": "k", "candidates": [WRONG, GOOD]}))
    assert run_cli("--references", str(refs), "--predictions", str(preds), "--json",
                   "--bootstrap", "0", "--quiet") == 0  # fmt: skip
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert list(result["selection"]) == ["first", "sac", "parse_sac"]
    assert run_cli("--references", str(refs), "--predictions", str(preds), "--select",
                   "likelihood", "--quiet") == 2  # fmt: skip
    assert "needs one log-prob per candidate" in capsys.readouterr().err
