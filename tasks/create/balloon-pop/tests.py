"""Tests of balloon-pop: the set-up, inflating by clicks, popping on the fourth, the reset."""


def _pump(run, clicks):
    run.green_flag().frames(2)
    for _ in range(clicks):
        run.click("Balloon").frames(2)


def test_green_flag_sets_up_the_balloon(run):
    run.green_flag().frames(2)
    b = run.sprite("Balloon")
    assert b.visible, "the Balloon should be visible after the green flag"
    assert b.costume == "balloon", f"costume is {b.costume!r}"
    assert round(b.size) == 50, f"size is {b.size}"
    assert (round(b.x), round(b.y)) == (0, -100), f"the Balloon is at ({b.x}, {b.y})"


def test_three_clicks_inflate_without_popping(run):
    _pump(run, 3)
    run.frames(20)
    b = run.sprite("Balloon")
    assert round(b.size) == 80, f"size is {b.size} after 3 clicks, not 80"
    assert b.costume == "balloon" and b.visible, f"costume {b.costume!r}, visible {b.visible}"
    assert run.said("Balloon") == [], f"the Balloon said {run.said('Balloon')}"


def test_fourth_click_pops(run):
    _pump(run, 4)
    b = run.sprite("Balloon")
    assert b.costume == "popped", f"costume is {b.costume!r} after the 4th click"
    assert b.bubble == "Pop!", f"the Balloon says {b.bubble!r}"
    run.seconds(0.3)
    assert run.sprite("Balloon").visible, "the popped balloon should stay visible for 0.5 s"


def test_disappears_half_a_second_after_popping(run):
    _pump(run, 4)
    run.seconds(0.6)
    assert not run.sprite("Balloon").visible, "the Balloon did not hide after popping"


def test_green_flag_brings_it_back(run):
    _pump(run, 4)
    run.seconds(1)
    run.green_flag().frames(2)
    b = run.sprite("Balloon")
    assert b.visible and b.costume == "balloon", f"visible {b.visible}, costume {b.costume!r}"
    assert round(b.size) == 50, f"size is {b.size} after the green flag"
