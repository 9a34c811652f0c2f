"""Tests of average: a whole average, a half, rounding up, negatives, one number, none, twelve numbers, and two runs in a row."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("How many numbers?", "Number?")


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS)


def test_whole(run):
    _says(run, ["3", "2", "4", "6"], "4")


def test_half(run):
    _says(run, ["4", "1", "2", "3", "4"], "2.5")


def test_rounds_up(run):
    _says(run, ["3", "1", "2", "2"], "1.67")


def test_negatives(run):
    _says(run, ["2", "-3", "3"], "0")


def test_one_number(run):
    _says(run, ["1", "5"], "5")


def test_no_numbers(run):
    _says(run, ["0"], "no numbers")


def test_twelve_numbers(run):
    _says(run, ["12", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"], "6.5")


def test_twice_in_a_row(run):
    _says(run, ["2", "1", "2"], "1.5")
    _says(run, ["2", "10", "20"], "15")
