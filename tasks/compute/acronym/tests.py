"""Tests of acronym: a phrase, one word, extra spaces everywhere, the empty answer, and two runs in a row."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("Type a phrase",)


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS)


def test_png(run):
    _says(run, ["portable network graphics"], "png")


def test_one_word(run):
    _says(run, ["Hello"], "H")


def test_extra_spaces(run):
    _says(run, ["  as  soon as   possible "], "asap")


def test_empty(run):
    _says(run, [""], "")


def test_capitals_kept(run):
    _says(run, ["Scratch Is Fun"], "SIF")


def test_twice_in_a_row(run):
    _says(run, ["big red dog"], "brd")
    _says(run, ["cat"], "c")
