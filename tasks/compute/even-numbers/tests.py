"""Tests of even-numbers: the list's items, the count on screen, an empty result, two runs."""

from scratch_gym.tasks import idle


def _evens(run, n):
    run.answer(str(n)).green_flag()
    run.wait_until(idle(), frames=120, message=f"for {n} the program did not finish")
    run.seconds(1)
    expected = list(range(2, n + 1, 2))
    bubble = run.sprite("Sprite1").bubble
    assert bubble == str(len(expected)), f"for {n} Sprite1 shows {bubble!r}, not {len(expected)}"
    items = [int(float(x)) for x in run.list("evens")]
    assert items == expected, f"for {n} the list holds {items}"


def test_up_to_ten(run):
    _evens(run, 10)


def test_odd_limit(run):
    _evens(run, 7)


def test_nothing_below_two(run):
    _evens(run, 1)


def test_twice_in_a_row(run):
    _evens(run, 6)
    _evens(run, 4)
