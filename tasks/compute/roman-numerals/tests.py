"""Tests of roman-numerals: 1994, 4, 9, 3999, 1, 0, and two runs in a row."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("Enter a number from 1 to 3999",)


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS)


def test_year_1994(run):
    _says(run, ["1994"], "MCMXCIV")


def test_four(run):
    _says(run, ["4"], "IV")


def test_nine(run):
    _says(run, ["9"], "IX")


def test_largest(run):
    _says(run, ["3999"], "MMMCMXCIX")


def test_one(run):
    _says(run, ["1"], "I")


def test_zero(run):
    _says(run, ["0"], "")


def test_twice_in_a_row(run):
    _says(run, ["58"], "LVIII")
    _says(run, ["1000"], "M")
