"""Tests of unique-items: a repeat, no words, all the same, all different, and two runs in a row (list and count)."""

from scratch_gym.tasks import idle


def _unique(run, words, expected):
    before = len(run.said("Sprite1"))
    run.answer(len(words), *words).green_flag()
    run.wait_until(idle(), frames=300, message=f"for {words} the program did not finish")
    items = run.list("unique")
    assert items == expected, f"for {words} the list unique holds {items}, not {expected}"
    said = run.said("Sprite1")[before:]
    assert said, f"for {words} Sprite1 said nothing"
    assert said[-1] == str(len(expected)), f"for {words} Sprite1 said {said[-1]!r}"


def test_one_repeat(run):
    _unique(run, ["apple", "pear", "apple"], ["apple", "pear"])


def test_no_words(run):
    _unique(run, [], [])


def test_all_the_same(run):
    _unique(run, ["a", "a", "a"], ["a"])


def test_all_different(run):
    _unique(run, ["x", "y", "z"], ["x", "y", "z"])


def test_twice_in_a_row(run):
    _unique(run, ["dog", "cat", "cat", "dog"], ["dog", "cat"])
    _unique(run, ["sun", "moon"], ["sun", "moon"])
