"""Tests of reverse-number: 123, trailing zeros, 0, one digit, a negative number, and two runs in a row."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("Enter a whole number",)


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS)


def test_one_two_three(run):
    _says(run, ["123"], "321")


def test_trailing_zeros(run):
    _says(run, ["1200"], "21")


def test_zero(run):
    _says(run, ["0"], "0")


def test_one_digit(run):
    _says(run, ["7"], "7")


def test_negative(run):
    _says(run, ["-34"], "-43")


def test_twice_in_a_row(run):
    _says(run, ["45"], "54")
    _says(run, ["908"], "809")
