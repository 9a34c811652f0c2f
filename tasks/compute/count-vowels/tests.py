"""Tests of count-vowels: a sentence, the empty answer, no vowels, capitals, and two runs in a row."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("Type a sentence",)


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS)


def test_hello_world(run):
    _says(run, ["hello world"], "3")


def test_empty(run):
    _says(run, [""], "0")


def test_no_vowels(run):
    _says(run, ["rhythm"], "0")


def test_capitals(run):
    _says(run, ["AEIOU"], "5")


def test_sentence(run):
    _says(run, ["Scratch is fun"], "3")


def test_twice_in_a_row(run):
    _says(run, ["banana"], "3")
    _says(run, ["sky"], "0")
