"""Tests of palindrome: odd and even palindromes, near misses (one in a 100-letter word), one letter, the empty word, two runs."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("Type a word",)


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS)


def test_racecar(run):
    _says(run, ["racecar"], "yes")


def test_abba(run):
    _says(run, ["abba"], "yes")


def test_near_miss(run):
    _says(run, ["abca"], "no")


def test_one_letter(run):
    _says(run, ["a"], "yes")


def test_empty(run):
    _says(run, [""], "yes")


def test_two_letters(run):
    _says(run, ["ab"], "no")


def test_long_near_miss(run):
    _says(run, ["a" * 49 + "bc" + "a" * 49], "no")


def test_twice_in_a_row(run):
    _says(run, ["abc"], "no")
    _says(run, ["noon"], "yes")
