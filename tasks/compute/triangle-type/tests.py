"""Tests of triangle-type: each kind of triangle, isosceles in every position, and non-triangles of every kind."""

from scratch_gym.tasks.qa import says

QUESTIONS = ("Side a?", "Side b?", "Side c?")


def _says(run, answers, expected):
    says(run, answers, expected, QUESTIONS)


def test_equilateral(run):
    _says(run, ["3", "3", "3"], "equilateral")


def test_scalene(run):
    _says(run, ["3", "4", "5"], "scalene")


def test_all_zero(run):
    _says(run, ["0", "0", "0"], "not a triangle")


def test_isosceles_any_position(run):
    _says(run, ["5", "5", "8"], "isosceles")
    _says(run, ["8", "5", "5"], "isosceles")
    _says(run, ["5", "8", "5"], "isosceles")


def test_not_a_triangle_any_side(run):
    _says(run, ["1", "2", "3"], "not a triangle")
    _says(run, ["1", "10", "2"], "not a triangle")
    _says(run, ["10", "1", "2"], "not a triangle")


def test_twice_in_a_row(run):
    _says(run, ["2", "3", "4"], "scalene")
    _says(run, ["4", "4", "4"], "equilateral")
