"""Tests of triangle-type: each kind of triangle, isosceles in every position, and non-triangles of every kind."""

from scratch_gym.tasks import idle

QUESTIONS = ("Side a?", "Side b?", "Side c?")


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
