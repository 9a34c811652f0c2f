"""Tests of insertion-sort: mixed numbers, none, one, negatives, duplicates, 9 and 10 (numeric order), and two runs."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("How many numbers?", "Number?")


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS, frames=400)


def test_four_numbers(run):
    _says(run, ["4", "5", "3", "9", "1"], "1,3,5,9")


def test_one_number(run):
    _says(run, ["1", "7"], "7")


def test_negatives(run):
    _says(run, ["3", "-2", "10", "-5"], "-5,-2,10")


def test_duplicates(run):
    _says(run, ["3", "2", "1", "2"], "1,2,2")


def test_numeric_order(run):
    _says(run, ["2", "10", "9"], "9,10")


def test_sorted_list_and_then_none(run):
    _says(run, ["3", "8", "6", "7"], "6,7,8")
    items = [int(float(x)) for x in run.list("numbers")]
    assert items == [6, 7, 8], f"the list numbers holds {items}, not [6, 7, 8]"
    _says(run, ["0"], "")
    assert run.list("numbers") == [], "the list numbers is not empty for no numbers"
