"""Tests of longest-word: ties, one word, the longest word first or last, extra spaces, the empty answer, and two runs."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("Type a sentence",)


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS)


def test_first_of_ties(run):
    _says(run, ["the quick brown fox"], "quick")


def test_one_word(run):
    _says(run, ["hello"], "hello")


def test_longest_last(run):
    _says(run, ["a bb ccc"], "ccc")


def test_shorter_words_after(run):
    _says(run, ["four is a word"], "four")


def test_extra_spaces(run):
    _says(run, ["  hi  there "], "there")


def test_empty(run):
    _says(run, [""], "")


def test_twice_in_a_row(run):
    _says(run, ["elephants are big"], "elephants")
    _says(run, ["a cat"], "cat")
