"""Tests of digit-sum: several numbers, 0, one digit, a negative number, and two runs in a row."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("Enter a whole number",)


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS)


def test_five_digits(run):
    _says(run, ["12345"], "15")


def test_zero(run):
    _says(run, ["0"], "0")


def test_one_digit(run):
    _says(run, ["7"], "7")


def test_nines(run):
    _says(run, ["9999"], "36")


def test_negative(run):
    _says(run, ["-52"], "7")


def test_twice_in_a_row(run):
    _says(run, ["18"], "9")
    _says(run, ["111"], "3")
