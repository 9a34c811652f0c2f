"""Tests of list-max: mixed numbers, all negative, one number, none, the largest last (of 3 and of 12), and two runs in a row."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("How many numbers?", "Number?")


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS)


def test_mixed(run):
    _says(run, ["3", "3", "9", "2"], "9")


def test_all_negative(run):
    _says(run, ["3", "-5", "-2", "-8"], "-2")


def test_one_number(run):
    _says(run, ["1", "7"], "7")


def test_no_numbers(run):
    _says(run, ["0"], "empty")


def test_largest_last(run):
    _says(run, ["3", "10", "9", "100"], "100")


def test_twelve_numbers(run):
    _says(run, ["12", "5", "1", "2", "3", "4", "6", "7", "8", "9", "10", "11", "50"], "50")


def test_twice_in_a_row(run):
    _says(run, ["2", "4", "1"], "4")
    _says(run, ["2", "2", "6"], "6")
