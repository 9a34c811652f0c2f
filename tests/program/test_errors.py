"""Invalid text: errors name the line and column, quote the text and suggest blocks."""

from __future__ import annotations

import pytest

from scratch_gym.program import ScratchblocksError, parse_scripts


def _error(text: str, **kw) -> ScratchblocksError:
    with pytest.raises(ScratchblocksError) as info:
        parse_scripts(text, **kw)
    return info.value


def test_unknown_block_suggests_the_nearest():
    err = _error("when @greenFlag clicked\n    mvoe (10) steps")
    assert (err.line, err.column) == (2, 5)
    assert err.text == "    mvoe (10) steps"
    assert "move (10) steps" in err.suggestions
    assert "line 2, column 5" in str(err) and "mvoe (10) steps" in str(err)


def test_unbalanced_end():
    err = _error("when @greenFlag clicked\nmove (10) steps\nend")
    assert err.line == 3 and "end" in err.message
    err = _error("if <mouse down?> then\nelse\nelse\nend")
    assert err.line == 3


def test_boolean_where_a_number_goes():
    err = _error("move <mouse down?> steps")
    assert (err.line, err.column) == (1, 6)
    assert "boolean" in err.message and "number" in err.message


def test_number_where_a_boolean_goes():
    err = _error("forever\n  if (10) then\n  end\nend")
    assert (err.line, err.column) == (2, 6)
    assert "boolean" in err.message


def test_bad_menu_value():
    err = _error("set rotation style [sideways v]")
    assert (err.line, err.column) == (1, 20)
    assert "sideways" in err.message and "left-right" in err.message
    err = _error("go to [frnt v] layer")
    assert err.suggestions == ["front"]


def test_unknown_reporter_and_boolean():
    err = _error("say (pick randm (1) to (10))")
    assert err.column == 5 and "pick random (1) to (10)" in err.suggestions
    err = _error("if <mouse dwn?> then\nend")
    assert err.column == 4 and "mouse down?" in err.suggestions


def test_unclosed_brackets():
    err = _error("if <mouse down? then")
    assert err.line == 1 and "never closed" in err.message
    err = _error("say (hello")
    assert "never closed" in err.message


def test_hat_inside_c_block():
    err = _error("forever\nwhen @greenFlag clicked\nend")
    assert err.line == 2


def test_reporter_where_a_boolean_goes():
    err = _error("wait until <(x position)>")
    assert err.column == 12 and "boolean" in err.message


def test_adversarial_text_fails_fast_with_a_specific_error():
    """Huge lines and deep or unbalanced nesting give errors quickly, never a hang or a crash."""
    import random

    rng = random.Random(0)
    cases = ["x" * 100_000, "(" * 1500, "<(" * 900]
    cases += ["".join(rng.choice("(((<[ ab") for _ in range(1999)) for _ in range(50)]
    for text in cases:
        with pytest.raises(ScratchblocksError) as info:
            parse_scripts(text)
        assert info.value.line == 1
    with pytest.raises(ScratchblocksError, match="at most 2000 are allowed per line"):
        parse_scripts("move (1) steps " * 200)
