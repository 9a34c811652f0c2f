"""Tests of reverse-word: several words, one letter, a long word, and two runs in a row."""

from scratch_gym.tasks import idle


def _reverses(run, word):
    run.answer(word).green_flag()
    run.wait_until(idle(), frames=120, message=f"for {word!r} the program did not finish")
    run.seconds(1)
    bubble = run.sprite("Sprite1").bubble
    assert bubble == word[::-1], f"for {word!r} Sprite1 shows {bubble!r}, not {word[::-1]!r}"


def test_scratch(run):
    _reverses(run, "scratch")


def test_two_letters(run):
    _reverses(run, "ab")


def test_one_letter(run):
    _reverses(run, "x")


def test_long_word(run):
    _reverses(run, "encyclopedias")


def test_twice_in_a_row(run):
    _reverses(run, "abc")
    _reverses(run, "xyz")
