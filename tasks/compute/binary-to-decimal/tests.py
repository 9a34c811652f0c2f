"""Tests of binary-to-decimal: 0, 1, 101, 1000, eight ones, the empty answer, and two runs in a row."""

from scratch_gym.tasks import idle

QUESTIONS = ("Enter a binary number",)


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


def test_zero(run):
    _says(run, ["0"], "0")


def test_one(run):
    _says(run, ["1"], "1")


def test_five(run):
    _says(run, ["101"], "5")


def test_eight(run):
    _says(run, ["1000"], "8")


def test_byte(run):
    _says(run, ["11111111"], "255")


def test_empty(run):
    _says(run, [""], "0")


def test_twice_in_a_row(run):
    _says(run, ["110"], "6")
    _says(run, ["11"], "3")
