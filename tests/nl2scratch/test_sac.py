"""SAC scoring, the worked example, and the 800-example checks."""

from __future__ import annotations

import statistics

import pytest

from scratch_gym.nl2scratch import sac_nl, sac_ref
from scratch_gym.nl2scratch.sac import jaccard
from scratch_gym.nl2scratch.sac_rules import scalar_agreement

from .cases import WORKED_DESCRIPTION, WORKED_PROGRAM


def test_scoring_primitives() -> None:
    assert jaccard(set(), set()) is None
    assert jaccard({"a", "b"}, {"b", "c"}) == pytest.approx(1 / 3)
    assert scalar_agreement(None, None) is None
    assert scalar_agreement("green_flag", None) == 0.0
    assert scalar_agreement("x", "x") == 1.0


def test_worked_example_scores_one() -> None:
    result = sac_nl(WORKED_PROGRAM, WORKED_DESCRIPTION)
    assert result.score == 1.0 and result.perfect and result.high
    values = result.program.as_dict()
    assert values["event_type"] == "green_flag"
    assert values["action_types"] == ["go_to", "move", "set_variable", "turn_left", "turn_right"]
    assert values["variable_names"] == ["score"]
    assert values["loop_types"] == ["forever", "repeat_until"]
    assert values["condition_types"] == ["edge", "key_press", "touching"]
    assert set(values["numeric_values"]) == {"-171", "-97", "0", "10", "15"}
    comparable = {k for k, v in result.slot_scores.items() if v is not None}
    assert comparable == {
        "event_type", "action_types", "loop_types", "condition_types", "numeric_values",
        "variable_names",
    }  # fmt: skip


def test_wrong_description_scores_low() -> None:
    result = sac_nl(WORKED_PROGRAM, "When this sprite is clicked, say hello for 2 seconds.")
    assert result.score < 0.3
    assert "event_type" in result.mismatched_slots()


def test_partial_match() -> None:
    program = ["when @greenFlag clicked", "move (10) steps", "turn right (15) degrees"]
    result = sac_nl(program, "When the green flag is clicked, move 10 steps.")
    assert 0.5 < result.score < 1.0
    assert result.slot_scores["action_types"] == pytest.approx(0.5)


def test_sac_ref() -> None:
    assert sac_ref(WORKED_PROGRAM, WORKED_PROGRAM).score == 1.0
    edited = [line.replace("(15)", "(20)") for line in WORKED_PROGRAM]
    result = sac_ref(edited, WORKED_PROGRAM)
    assert result.mismatched_slots() == ["numeric_values"]
    assert result.slot_scores["numeric_values"] == pytest.approx(4 / 6)
    assert sac_ref([], WORKED_PROGRAM).score == 0.0
    assert sac_nl("", WORKED_DESCRIPTION).score == 0.0


def test_own_descriptions_score_high(diag800: list[dict]) -> None:
    scores = [sac_nl(row["pseudocode"], row["nl"]).score for row in diag800]
    high = sum(s >= 0.85 for s in scores) / len(scores)
    print(
        f"SAC_nl own: mean={statistics.mean(scores):.4f} "
        f"perfect={sum(s == 1.0 for s in scores) / len(scores):.3f} high={high:.3f} "
        f"min={min(scores):.3f} p5={sorted(scores)[len(scores) // 20]:.3f}"
    )
    assert high >= 0.95
    assert statistics.mean(scores) >= 0.95


def test_reference_against_itself(diag800: list[dict]) -> None:
    assert all(sac_ref(row["pseudocode"], row["pseudocode"]).score == 1.0 for row in diag800)


def test_mismatched_pairs_score_low(diag800: list[dict]) -> None:
    n = len(diag800)
    results = [sac_nl(diag800[i]["pseudocode"], diag800[(i + 1) % n]["nl"]) for i in range(n)]
    mean = statistics.mean(r.score for r in results)
    perfect = sum(r.perfect for r in results) / n
    print(f"SAC_nl derangement (shift 1): mean={mean:.4f} perfect={perfect:.4f}")
    assert mean <= 0.5
    assert perfect <= 0.05
