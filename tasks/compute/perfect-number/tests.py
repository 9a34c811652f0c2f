"""Tests of perfect-number: 6, 28, 496, 12, 1 and 0, and two runs in a row."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("Enter a whole number",)


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS)


def test_six(run):
    _says(run, ["6"], "perfect")


def test_twenty_eight(run):
    _says(run, ["28"], "perfect")


def test_four_ninety_six(run):
    _says(run, ["496"], "perfect")


def test_twelve(run):
    _says(run, ["12"], "not perfect")


def test_one(run):
    _says(run, ["1"], "not perfect")


def test_zero(run):
    _says(run, ["0"], "not perfect")


def test_twice_in_a_row(run):
    _says(run, ["6"], "perfect")
    _says(run, ["28"], "perfect")
