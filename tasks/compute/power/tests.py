"""Tests of power: 2^10, x^0, 0^0, 0^5, a negative base, and two runs in a row."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("Base?", "Exponent?")


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS)


def test_two_to_ten(run):
    _says(run, ["2", "10"], "1024")


def test_power_zero(run):
    _says(run, ["5", "0"], "1")


def test_zero_to_zero(run):
    _says(run, ["0", "0"], "1")


def test_zero_to_five(run):
    _says(run, ["0", "5"], "0")


def test_negative_base(run):
    _says(run, ["-2", "3"], "-8")


def test_power_one(run):
    _says(run, ["3", "1"], "3")


def test_twice_in_a_row(run):
    _says(run, ["2", "3"], "8")
    _says(run, ["3", "2"], "9")
