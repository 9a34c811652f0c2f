"""Tests of acronym: a phrase, one word, extra spaces everywhere, the empty answer, and two runs in a row."""

from scratch_gym.tasks import idle

QUESTIONS = ("Type a phrase",)


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


def test_png(run):
    _says(run, ["portable network graphics"], "png")


def test_one_word(run):
    _says(run, ["Hello"], "H")


def test_extra_spaces(run):
    _says(run, ["  as  soon as   possible "], "asap")


def test_empty(run):
    _says(run, [""], "")


def test_capitals_kept(run):
    _says(run, ["Scratch Is Fun"], "SIF")


def test_twice_in_a_row(run):
    _says(run, ["big red dog"], "brd")
    _says(run, ["cat"], "c")
