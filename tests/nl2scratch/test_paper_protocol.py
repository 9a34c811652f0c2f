"""Paper protocol behaviours the issue names: post-processing, EM normalisation, the published
parser's acceptance and the lexical SAC extractors (each checked against the robust variant)."""

from __future__ import annotations

import pytest

from scratch_gym.nl2scratch import get_protocol, postprocess, sac_nl
from scratch_gym.nl2scratch.paper import metric_text, paper_parse_check
from scratch_gym.nl2scratch.paper.description_slots import paper_description_slots

PAPER, ROBUST = get_protocol("paper"), get_protocol("robust")
PAPER_LOOPS = get_protocol("paper", ref_loop_slots=True)
HAT = "when @greenFlag clicked"


@pytest.mark.parametrize(
    "line",
    [
        "when [space v] key pressed",
        "play sound [pop v] until done",
        "turn cw (90) degrees",
        "start sound [pop v]",
        "go to [Sprite2 v]",
        "// a comment",
        "if on edge, bounce",
        "when I receive [go v]",
    ],
)
def test_published_parser_rejects_lines_the_program_model_accepts(line: str) -> None:
    program = line if line.startswith("when") else f"{HAT}\n{line}"
    check = paper_parse_check(program)
    assert not check.ok and check.line == program.count("\n") + 1 and check.reason


def test_published_parser_accepts_its_own_spellings_and_reports_the_failing_line() -> None:
    good = [
        "when (space v) key pressed",
        "forever",
        "    if <touching (edge v)?> then",
        "        turn right (15) degrees",
        "    else",
        "        play sound (pop v)",
        "    end",
        "end",
        "wait until <<mouse down?> and <(score) > (3)>>",
        "say [a hide-and-seek game]",
    ]
    assert paper_parse_check("\n".join(good)).ok
    assert PAPER.parse_success("\n".join(good))
    bad = paper_parse_check(f"{HAT}\nmove (10) steps\nend")
    assert (bad.ok, bad.line) == (False, 3) and "end" in bad.reason
    assert not paper_parse_check("move (10) steps").ok  # no hat
    assert not paper_parse_check("   \n").ok
    assert not paper_parse_check(f"{HAT}\nelse").ok
    assert not paper_parse_check(f"{HAT}\nwait until <(a) contains (b)>").ok  # raises there


def test_the_program_models_parser_differs_on_the_issues_examples() -> None:
    program = f"{HAT}\nturn cw (90) degrees"
    assert ROBUST.parse_success("when [space v] key pressed\nhide")
    assert not PAPER.parse_success("when [space v] key pressed\nhide")
    assert PAPER.parse_success(program) is False


def test_postprocess_splits_one_liners_closes_blocks_and_cuts_repeats() -> None:
    assert postprocess("when green flag clicked forever: move (10) steps") == (
        "when @greenFlag clicked\nforever\nmove (10) steps\nend"
    )
    assert postprocess("text<|eot_id|>junk") == "text"
    assert postprocess(f"{HAT}\nend\nif <mouse down?> then\nhide\nelse") == (
        f"{HAT}\nif <mouse down?> then\nhide\nelse\nend"
    )
    # a trailing "then" is dropped first, and the published rewrite of "if X" without "then"
    # runs after the touching rewrite
    assert postprocess(f"{HAT}\nif touching edge\nhide").splitlines()[1] == (
        "if <touching (edge v)?> then> then"
    )
    block = [f"say [{i}]" for i in range(5)]
    assert postprocess("\n".join([HAT, *block, *block, "hide"])) == "\n".join([HAT, *block])
    assert postprocess("   ") == "" and postprocess(None) == ""


def test_em_ignores_commas_colons_and_non_ascii_but_not_words() -> None:
    assert metric_text("go to x: (1) y: (2)") == "go to x  (1) y  (2)"
    assert PAPER.exact_match(
        "say [héllo]\n  go to x, (1) y: (2)", "say [hllo]\ngo to x: (1) y, (2)"
    )
    assert not PAPER.exact_match("go to x (1) y (2)", "go to x: (1) y: (2)")  # spaces count
    assert not ROBUST.exact_match("say [héllo]", "say [hllo]")
    assert PAPER.token_f1("a b", "a c") == pytest.approx(0.5)


def test_description_side_is_purely_lexical() -> None:
    slots = paper_description_slots(
        "When the green flag is clicked, play the pop sound, wait half a second and face right. "
        "If the score is 5, repeat until touching the edge."
    )
    assert "1" in slots.numeric_values  # "a" read as 1
    assert "0.5" not in slots.numeric_values and "90" not in slots.numeric_values
    assert "play_sound" not in slots.action_types  # "play the X sound" is not in its list
    assert "equals" in slots.condition_types  # " is " after a condition word
    assert "repeat_until" in slots.loop_types
    assert slots.event_type == "green_flag"


def test_sac_nl_differs_from_robust_where_the_issue_says() -> None:
    program = [HAT, "wait (0.5) seconds", "point in direction (90)"]
    text = "When the green flag is clicked, wait half a second and face right."
    assert sac_nl(program, text).score == 1.0
    paper = PAPER.sac_nl(program, text)
    assert paper.score < 1.0 and paper.slot_scores["numeric_values"] < 1.0


def test_sac_ref_leaves_loop_slots_out_unless_asked() -> None:
    left = [HAT, "repeat (3)", "    move (10) steps", "end"]
    right = [HAT, "forever", "    move (10) steps", "end"]
    default = PAPER.sac_ref(left, right)
    assert default.slot_scores["loop_types"] is None and default.score < 1.0  # numbers differ
    with_loops = PAPER_LOOPS.sac_ref(left, right)
    assert with_loops.slot_scores["loop_types"] == 0.0 and with_loops.score < default.score
    assert PAPER.sac_ref("", right).score == 0.0
    assert PAPER.sac_ref(right, right).score == 1.0


def test_perfect_and_high_are_exact_comparisons_in_the_paper_protocol() -> None:
    assert PAPER.high(0.85) and not PAPER.high(0.8499999999)
    assert PAPER.perfect(1.0) and not PAPER.perfect(0.9999999999)
    with pytest.raises(ValueError, match="unknown protocol"):
        get_protocol("papr")
