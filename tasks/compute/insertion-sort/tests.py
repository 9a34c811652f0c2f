"""Tests of insertion-sort: mixed numbers, none, one, negatives, duplicates, 9 and 10 (numeric order), and two runs."""

from scratch_gym.tasks import idle

QUESTIONS = ("How many numbers?", "Number?")


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


def test_four_numbers(run):
    _says(run, ["4", "5", "3", "9", "1"], "1,3,5,9")


def test_one_number(run):
    _says(run, ["1", "7"], "7")


def test_negatives(run):
    _says(run, ["3", "-2", "10", "-5"], "-5,-2,10")


def test_duplicates(run):
    _says(run, ["3", "2", "1", "2"], "1,2,2")


def test_numeric_order(run):
    _says(run, ["2", "10", "9"], "9,10")


def test_sorted_list_and_then_none(run):
    _says(run, ["3", "8", "6", "7"], "6,7,8")
    items = [int(float(x)) for x in run.list("numbers")]
    assert items == [6, 7, 8], f"the list numbers holds {items}, not [6, 7, 8]"
    _says(run, ["0"], "")
    assert run.list("numbers") == [], "the list numbers is not empty for no numbers"
