"""Tests of compass-needle: the flag and the right arrow work as before; left turns back 45,
up points north, and clicking the Needle names its direction."""


def _keys(run, *keys):
    run.green_flag().frames(2)
    for key in keys:
        run.press(key).frames(1)
    run.frames(1)
    return round(run.sprite("Needle").direction)


def _name(run, *keys):
    _keys(run, *keys)
    run.click("Needle").frames(2)
    return run.sprite("Needle").bubble


def test_flag_points_east_with_a_hint(run):
    assert _keys(run) == 90, "the Needle should point in direction 90 after the flag"
    assert run.sprite("Needle").bubble == "Use the arrow keys", f"{run.sprite('Needle').bubble!r}"


def test_right_arrow_turns_45(run):
    assert _keys(run, "right arrow") == 135, "right arrow should turn 90 to 135"


def test_left_arrow_turns_back_45(run):
    assert _keys(run, "left arrow") == 45, "left arrow should turn 90 to 45"
    run.press("left arrow").frames(2)
    assert round(run.sprite("Needle").direction) == 0, "two lefts from 90 should give 0"


def test_up_arrow_points_north(run):
    assert _keys(run, "right arrow", "up arrow") == 0, "up arrow should point to 0"


def test_click_names_the_four_directions(run):
    named = {
        "North": _name(run, "right arrow", "up arrow"),
        "East": _name(run),
        "South": _name(run, "right arrow", "right arrow"),
        "West": _name(run, "up arrow", "left arrow", "left arrow"),
    }
    wrong = {k: v for k, v in named.items() if k != v}
    assert not wrong, f"clicking said {wrong} (expected: said)"


def test_click_gives_other_directions_in_degrees(run):
    assert _name(run, "right arrow") == "135 degrees", f"{run.sprite('Needle').bubble!r}"
