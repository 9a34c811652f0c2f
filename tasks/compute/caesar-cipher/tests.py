"""Tests of caesar-cipher: shifts of 1, 3 with wrap-around, 0 with spaces, 26, -1, the empty word, and two runs."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("Word?", "Shift?")


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS, frames=400)


def test_shift_one(run):
    _says(run, ["abc", "1"], "bcd")


def test_wrap_around(run):
    _says(run, ["xyz", "3"], "abc")


def test_zero_keeps_spaces(run):
    _says(run, ["hello world", "0"], "hello world")


def test_full_circle(run):
    _says(run, ["scratch", "26"], "scratch")


def test_negative_shift(run):
    _says(run, ["abc", "-1"], "zab")


def test_empty_word(run):
    _says(run, ["", "5"], "")


def test_twice_in_a_row(run):
    _says(run, ["cat", "2"], "ecv")
    _says(run, ["dog", "1"], "eph")
