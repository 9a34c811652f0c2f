"""Tests of binary-to-decimal: 0, 1, 101, 1000, eight ones, the empty answer, and two runs in a row."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("Enter a binary number",)


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS)


def test_zero(run):
    _says(run, ["0"], "0")


def test_one(run):
    _says(run, ["1"], "1")


def test_five(run):
    _says(run, ["101"], "5")


def test_eight(run):
    _says(run, ["1000"], "8")


def test_byte(run):
    _says(run, ["11111111"], "255")


def test_empty(run):
    _says(run, [""], "0")


def test_twice_in_a_row(run):
    _says(run, ["110"], "6")
    _says(run, ["11"], "3")
