"""Tests of fizzbuzz: up to 15, 5, 1 and 0, and two runs in a row (everything said, in order)."""

from scratch_gym.tasks import idle


def _expected(n):
    words = []
    for i in range(1, n + 1):
        if i % 15 == 0:
            words.append("FizzBuzz")
        elif i % 3 == 0:
            words.append("Fizz")
        elif i % 5 == 0:
            words.append("Buzz")
        else:
            words.append(str(i))
    return words


def _fizzbuzz(run, n):
    before = len(run.said("Sprite1"))
    run.answer(str(n)).green_flag()
    run.wait_until(idle(), frames=400, message=f"for {n} the program did not finish")
    # the question shows in Sprite1's speech bubble and is cleared on answering: leave those out
    said = [t for t in run.said("Sprite1")[before:] if t not in ("Up to which number?", "")]
    assert said == _expected(n), f"for {n} Sprite1 said {said}, not {_expected(n)}"


def test_up_to_fifteen(run):
    _fizzbuzz(run, 15)


def test_up_to_five(run):
    _fizzbuzz(run, 5)


def test_one(run):
    _fizzbuzz(run, 1)


def test_zero_says_nothing(run):
    _fizzbuzz(run, 0)


def test_twice_in_a_row(run):
    _fizzbuzz(run, 3)
    _fizzbuzz(run, 6)
