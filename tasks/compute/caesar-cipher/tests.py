"""Tests of caesar-cipher: shifts of 1, 3 with wrap-around, 0 with spaces, 26, -1, the empty word, and two runs."""

from scratch_gym.tasks import idle

QUESTIONS = ("Word?", "Shift?")


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
    run.wait_until(idle(), frames=400, message=f"for {answers} the program did not finish")
    said = _spoken(run.said("Sprite1")[before:])
    assert said, f"for {answers} Sprite1 said nothing"
    assert said[-1] == expected, f"for {answers} Sprite1 said {said[-1]!r}, not {expected!r}"


def test_shift_one(run):
    _says(run, ["abc", "1"], "bcd")


def test_wrap_around(run):
    _says(run, ["xyz", "3"], "abc")


def test_zero_keeps_spaces(run):
    _says(run, ["hello world", "0"], "hello world")


def test_full_circle(run):
    _says(run, ["scratch", "26"], "scratch")


def test_negative_shift(run):
    _says(run, ["abc", "-1"], "zab")


def test_empty_word(run):
    _says(run, ["", "5"], "")


def test_twice_in_a_row(run):
    _says(run, ["cat", "2"], "ecv")
    _says(run, ["dog", "1"], "eph")
