"""Tests of palindrome: odd and even palindromes, near misses (one in a 100-letter word), one letter, the empty word, two runs."""

from scratch_gym.tasks import idle

QUESTIONS = ("Type a word",)


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


def test_racecar(run):
    _says(run, ["racecar"], "yes")


def test_abba(run):
    _says(run, ["abba"], "yes")


def test_near_miss(run):
    _says(run, ["abca"], "no")


def test_one_letter(run):
    _says(run, ["a"], "yes")


def test_empty(run):
    _says(run, [""], "yes")


def test_two_letters(run):
    _says(run, ["ab"], "no")


def test_long_near_miss(run):
    _says(run, ["a" * 49 + "bc" + "a" * 49], "no")


def test_twice_in_a_row(run):
    _says(run, ["abc"], "no")
    _says(run, ["noon"], "yes")
