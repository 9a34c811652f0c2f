"""Tests of factorial: 5, 0, 1, 10, a negative number, and two runs in a row."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("Enter a number",)


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS)


def test_five(run):
    _says(run, ["5"], "120")


def test_zero(run):
    _says(run, ["0"], "1")


def test_one(run):
    _says(run, ["1"], "1")


def test_ten(run):
    _says(run, ["10"], "3628800")


def test_negative(run):
    _says(run, ["-3"], "Error")


def test_twice_in_a_row(run):
    _says(run, ["4"], "24")
    _says(run, ["3"], "6")
