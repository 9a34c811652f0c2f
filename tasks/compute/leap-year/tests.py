"""Tests of leap-year: an ordinary leap year, an ordinary year, centuries with and without 400, and year 0."""

from scratch_gym.tasks import idle

QUESTIONS = ("Which year?",)


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


def test_leap_2024(run):
    _says(run, ["2024"], "leap year")


def test_common_2023(run):
    _says(run, ["2023"], "not a leap year")


def test_century_1900(run):
    _says(run, ["1900"], "not a leap year")


def test_four_hundred_2000(run):
    _says(run, ["2000"], "leap year")


def test_odd_year_2001(run):
    _says(run, ["2001"], "not a leap year")


def test_year_zero(run):
    _says(run, ["0"], "leap year")
