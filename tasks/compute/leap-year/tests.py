"""Tests of leap-year: an ordinary leap year, an ordinary year, centuries with and without 400, and year 0."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("Which year?",)


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS)


def test_leap_2024(run):
    _says(run, ["2024"], "leap year")


def test_common_2023(run):
    _says(run, ["2023"], "not a leap year")


def test_century_1900(run):
    _says(run, ["1900"], "not a leap year")


def test_four_hundred_2000(run):
    _says(run, ["2000"], "leap year")


def test_odd_year_2001(run):
    _says(run, ["2001"], "not a leap year")


def test_year_zero(run):
    _says(run, ["0"], "leap year")
