"""Tests of gcd: several pairs, a zero on either side, coprime numbers, and two runs in a row."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("First number?", "Second number?")


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS)


def test_twelve_and_eighteen(run):
    _says(run, ["12", "18"], "6")


def test_coprime(run):
    _says(run, ["7", "13"], "1")


def test_zero_first(run):
    _says(run, ["0", "5"], "5")


def test_zero_second(run):
    _says(run, ["9", "0"], "9")


def test_larger_first(run):
    _says(run, ["100", "75"], "25")


def test_twice_in_a_row(run):
    _says(run, ["21", "14"], "7")
    _says(run, ["8", "12"], "4")
