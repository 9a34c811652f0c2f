"""Exact match, token F1 and parse success."""

from __future__ import annotations

import pytest

from scratch_gym.nl2scratch.metrics import exact_match, normalize_program, token_f1


def test_exact_match_ignores_whitespace() -> None:
    gold = ["when @greenFlag clicked", "    move (10) steps"]
    assert exact_match("when @greenFlag  clicked\n\nmove (10) steps\n", gold)
    assert not exact_match("when @greenFlag clicked\nmove (11) steps", gold)
    assert normalize_program(" a  b \n\n c") == ["a b", "c"]


def test_token_f1() -> None:
    assert token_f1("a b c", "a b c") == 1.0
    assert token_f1("", "") == 1.0
    assert token_f1("a", "") == 0.0
    assert token_f1("a b", "a c") == pytest.approx(0.5)
    assert token_f1("a a b", "a b b") == pytest.approx(2 / 3)


def test_parse_success() -> None:
    from scratch_gym.nl2scratch.parser import parse_success

    assert parse_success(["when @greenFlag clicked", "move (10) steps"])
    assert not parse_success(["when @greenFlag clicked", "if <mouse down?> then", "move (10"])
    assert not parse_success("")
