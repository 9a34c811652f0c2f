"""Tests of card-layers: the stacking order (bottom to top) after the flag, clicks and keys."""


def _order(run):
    cards = [run.sprite(name) for name in ("Red", "Green", "Blue")]
    return [c.name for c in sorted(cards, key=lambda c: c.layer)]


def test_green_flag_stacks_red_green_blue(run):
    run.green_flag().frames(2)
    assert _order(run) == ["Red", "Green", "Blue"], f"bottom to top: {_order(run)}"


def test_click_brings_to_front(run):
    run.green_flag().frames(2)
    run.click("Green").frames(2)
    assert _order(run) == ["Red", "Blue", "Green"], f"after clicking Green: {_order(run)}"
    run.click("Red").frames(2)
    assert _order(run) == ["Blue", "Green", "Red"], f"after clicking Red: {_order(run)}"
    run.click("Blue").frames(2)
    assert _order(run) == ["Green", "Red", "Blue"], f"after clicking Blue: {_order(run)}"


def test_down_arrow_moves_red_back_one(run):
    run.green_flag().frames(2)
    run.click("Red").frames(2)
    run.press("down arrow").frames(2)
    assert _order(run) == ["Green", "Red", "Blue"], f"after Red on top, down: {_order(run)}"


def test_up_arrow_moves_green_forward_one(run):
    run.green_flag().frames(2)
    run.click("Red").frames(2)
    run.press("up arrow").frames(2)
    assert _order(run) == ["Blue", "Green", "Red"], f"after Red on top, up: {_order(run)}"
    run.green_flag().frames(2)
    run.press("up arrow").frames(2)
    assert _order(run) == ["Red", "Blue", "Green"], f"after the flag, up: {_order(run)}"


def test_b_sends_blue_to_the_back(run):
    run.green_flag().frames(2)
    run.press("b").frames(2)
    assert _order(run) == ["Blue", "Red", "Green"], f"after b: {_order(run)}"
