"""Tests of is-prime: small primes, 0 and 1, a square of a prime, a composite, and two runs in a row."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("Enter a whole number",)


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS)


def test_two(run):
    _says(run, ["2"], "prime")


def test_seventeen(run):
    _says(run, ["17"], "prime")


def test_one(run):
    _says(run, ["1"], "not prime")


def test_zero(run):
    _says(run, ["0"], "not prime")


def test_square_of_seven(run):
    _says(run, ["49"], "not prime")


def test_twenty_one(run):
    _says(run, ["21"], "not prime")


def test_twice_in_a_row(run):
    _says(run, ["9"], "not prime")
    _says(run, ["13"], "prime")
