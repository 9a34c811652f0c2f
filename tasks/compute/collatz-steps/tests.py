"""Tests of collatz-steps: 1, 6, 7, 27, 0 and a negative number, and two runs in a row."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("Enter a whole number",)


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS)


def test_one(run):
    _says(run, ["1"], "0")


def test_six(run):
    _says(run, ["6"], "8")


def test_seven(run):
    _says(run, ["7"], "16")


def test_twenty_seven(run):
    _says(run, ["27"], "111")


def test_zero(run):
    _says(run, ["0"], "invalid")


def test_negative(run):
    _says(run, ["-4"], "invalid")


def test_twice_in_a_row(run):
    _says(run, ["2"], "1")
    _says(run, ["3"], "7")
