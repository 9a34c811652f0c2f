"""Tests of sentinel-sum: two numbers, only the 0, negatives, decimals, and two runs in a row."""

from scratch_gym.tasks import idle

QUESTIONS = ("Number? (0 to stop)",)


def _spoken(texts):
    """What Sprite1 said, without its questions (an ask shows the question in Sprite1's bubble
    and clears it when answered)."""
    out = []
    for i, text in enumerate(texts):
        if text in QUESTIONS or (text == "" and i > 0 and texts[i - 1] in QUESTIONS):
            continue
        out.append(text)
    return out


def _says(run, answers, expected):
    """Answer the questions in order, click the green flag, check the last thing Sprite1 says."""
    before = len(run.said("Sprite1"))
    run.answer(*answers).green_flag()
    run.wait_until(idle(), frames=300, message=f"for {answers} the program did not finish")
    said = _spoken(run.said("Sprite1")[before:])
    assert said, f"for {answers} Sprite1 said nothing"
    assert said[-1] == expected, f"for {answers} Sprite1 said {said[-1]!r}, not {expected!r}"


def test_two_numbers(run):
    _says(run, ["5", "7", "0"], "12 from 2 numbers")


def test_only_zero(run):
    _says(run, ["0"], "0 from 0 numbers")


def test_negatives(run):
    _says(run, ["-3", "10", "-1", "0"], "6 from 3 numbers")


def test_decimals(run):
    _says(run, ["2.5", "2.5", "0"], "5 from 2 numbers")


def test_twice_in_a_row(run):
    _says(run, ["4", "0"], "4 from 1 numbers")
    _says(run, ["1", "2", "3", "0"], "6 from 3 numbers")
