"""Tests of sum-of-multiples: 10, 16, 6 (the number itself left out), 0, 1, a negative number, and two runs in a row."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("Enter a whole number",)


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS)


def test_ten(run):
    _says(run, ["10"], "23")


def test_sixteen(run):
    _says(run, ["16"], "60")


def test_six(run):
    _says(run, ["6"], "8")


def test_zero(run):
    _says(run, ["0"], "0")


def test_one(run):
    _says(run, ["1"], "0")


def test_negative(run):
    _says(run, ["-5"], "0")


def test_twice_in_a_row(run):
    _says(run, ["7"], "14")
    _says(run, ["4"], "3")
