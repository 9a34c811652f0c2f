"""Tests of prime-factors: 12, a prime, 1, 0, 360, and two runs in a row."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("Enter a whole number",)


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS, frames=60)


def test_twelve(run):
    _says(run, ["12"], "2x2x3")


def test_prime(run):
    _says(run, ["13"], "13")


def test_one(run):
    _says(run, ["1"], "none")


def test_zero(run):
    _says(run, ["0"], "none")


def test_three_sixty(run):
    _says(run, ["360"], "2x2x2x3x3x5")


def test_twice_in_a_row(run):
    _says(run, ["8"], "2x2x2")
    _says(run, ["15"], "3x5")
