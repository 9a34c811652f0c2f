"""Tests of fibonacci: positions 0, 1, 2, 10 and 20, and two runs in a row."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("Which Fibonacci number?",)


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS)


def test_position_zero(run):
    _says(run, ["0"], "0")


def test_position_one(run):
    _says(run, ["1"], "1")


def test_position_two(run):
    _says(run, ["2"], "1")


def test_position_ten(run):
    _says(run, ["10"], "55")


def test_position_twenty(run):
    _says(run, ["20"], "6765")


def test_twice_in_a_row(run):
    _says(run, ["5"], "5")
    _says(run, ["7"], "13")
