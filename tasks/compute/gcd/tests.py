"""Tests of gcd: several pairs, a zero on either side, coprime numbers, and two runs in a row."""

from scratch_gym.tasks import idle

QUESTIONS = ("First number?", "Second number?")


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


def test_twelve_and_eighteen(run):
    _says(run, ["12", "18"], "6")


def test_coprime(run):
    _says(run, ["7", "13"], "1")


def test_zero_first(run):
    _says(run, ["0", "5"], "5")


def test_zero_second(run):
    _says(run, ["9", "0"], "9")


def test_larger_first(run):
    _says(run, ["100", "75"], "25")


def test_twice_in_a_row(run):
    _says(run, ["21", "14"], "7")
    _says(run, ["8", "12"], "4")
