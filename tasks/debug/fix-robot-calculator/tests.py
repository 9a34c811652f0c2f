"""Tests of fix-robot-calculator: the three questions, and the answer said for each of + - * /,
a decimal result, and division by zero."""

from scratch_gym.tasks import Said


def _calc(run, a, op, b):
    run.answer(a, op, b)
    run.green_flag()
    run.wait_until(Said("Robot").includes_text("= "), frames=30, message="the Robot never answered")
    return run.sprite("Robot").bubble


def test_asks_three_questions(run):
    _calc(run, 3, "+", 4)
    asked = [s for s in run.said("Robot") if s.endswith("?")]
    assert asked == ["First number?", "Operation (+ - * /)?", "Second number?"], f"asked {asked}"


def test_adds(run):
    said = _calc(run, 3, "+", 4)
    assert said == "= 7", f"3 + 4: the Robot says {said!r}"


def test_subtracts(run):
    said = _calc(run, 10, "-", 4)
    assert said == "= 6", f"10 - 4: the Robot says {said!r}"


def test_multiplies(run):
    said = _calc(run, 6, "*", 7)
    assert said == "= 42", f"6 * 7: the Robot says {said!r}"


def test_divides(run):
    said = _calc(run, 7, "/", 2)
    assert said == "= 3.5", f"7 / 2: the Robot says {said!r}"


def test_divide_by_zero(run):
    said = _calc(run, 5, "/", 0)
    assert said == "= error", f"5 / 0: the Robot says {said!r}"
