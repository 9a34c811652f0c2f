"""Tests of sentinel-sum: two numbers, only the 0, negatives, decimals, and two runs in a row."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("Number? (0 to stop)",)


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS)


def test_two_numbers(run):
    _says(run, ["5", "7", "0"], "12 from 2 numbers")


def test_only_zero(run):
    _says(run, ["0"], "0 from 0 numbers")


def test_negatives(run):
    _says(run, ["-3", "10", "-1", "0"], "6 from 3 numbers")


def test_decimals(run):
    _says(run, ["2.5", "2.5", "0"], "5 from 2 numbers")


def test_twice_in_a_row(run):
    _says(run, ["4", "0"], "4 from 1 numbers")
    _says(run, ["1", "2", "3", "0"], "6 from 3 numbers")
