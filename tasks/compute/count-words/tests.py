"""Tests of count-words: a sentence, one word, extra spaces, only spaces, the empty answer, and two runs in a row."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("Type a sentence",)


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS)


def test_sentence(run):
    _says(run, ["the quick brown fox"], "4")


def test_one_word(run):
    _says(run, ["hello"], "1")


def test_extra_spaces(run):
    _says(run, ["  two   words "], "2")


def test_only_spaces(run):
    _says(run, ["   "], "0")


def test_empty(run):
    _says(run, [""], "0")


def test_twice_in_a_row(run):
    _says(run, ["a b c"], "3")
    _says(run, ["hi there"], "2")
