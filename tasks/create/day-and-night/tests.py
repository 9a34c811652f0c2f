"""Tests of day-and-night: the backdrop cycle and how the Sun and the Moon follow it."""


def _sun(run):
    s = run.sprite("Sun")
    return s.visible, round(s.x), round(s.y)


def test_green_flag_makes_it_day(run):
    run.green_flag().frames(3)
    assert run.backdrop == "day", f"the backdrop is {run.backdrop!r}"
    assert _sun(run) == (True, 150, 120), f"Sun visible, x, y: {_sun(run)}"
    assert not run.sprite("Moon").visible, "the Moon should hide during the day"


def test_sunset_glides_the_sun_down(run):
    run.green_flag().frames(3)
    run.press("space").frames(12)
    assert run.backdrop == "sunset", f"the backdrop is {run.backdrop!r} after one space"
    visible, x, y = _sun(run)
    assert visible and x == 150 and -95 < y < 115, f"the Sun should be gliding: {_sun(run)}"
    run.seconds(1)
    assert _sun(run) == (True, 150, -100), f"after the glide: {_sun(run)}"
    assert not run.sprite("Moon").visible, "the Moon came out at sunset"


def test_night_brings_the_moon(run):
    run.green_flag().frames(3)
    run.press("space").seconds(1.5)
    run.press("space").frames(3)
    assert run.backdrop == "night", f"the backdrop is {run.backdrop!r} after two spaces"
    moon = run.sprite("Moon")
    assert moon.visible and moon.bubble == "Good night!", f"Moon {moon.visible}, {moon.bubble!r}"
    assert not run.sprite("Sun").visible, "the Sun should hide at night"
    run.seconds(2.2)
    assert run.sprite("Moon").bubble is None, "Good night! should last 2 seconds"


def test_after_night_comes_day(run):
    run.green_flag().frames(3)
    for _ in range(3):
        run.press("space").seconds(1.5)
    assert run.backdrop == "day", f"the backdrop is {run.backdrop!r} after three spaces"
    assert _sun(run) == (True, 150, 120), f"Sun visible, x, y: {_sun(run)}"
    assert not run.sprite("Moon").visible, "the Moon should hide again by day"
