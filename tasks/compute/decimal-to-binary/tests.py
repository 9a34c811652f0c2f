"""Tests of decimal-to-binary: 0, 1, 5, 10, 255, and two runs in a row."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("Enter a whole number",)


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS)


def test_zero(run):
    _says(run, ["0"], "0")


def test_one(run):
    _says(run, ["1"], "1")


def test_five(run):
    _says(run, ["5"], "101")


def test_ten(run):
    _says(run, ["10"], "1010")


def test_byte(run):
    _says(run, ["255"], "11111111")


def test_twice_in_a_row(run):
    _says(run, ["6"], "110")
    _says(run, ["3"], "11")
