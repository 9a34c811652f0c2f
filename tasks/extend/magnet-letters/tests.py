"""Tests of magnet-letters: the Letter still starts top left saying Drag me!; it is draggable
after the flag, l locks and u unlocks it, clicking Home sends it into the box."""


def _start(run):
    run.green_flag().frames(3)
    return run.sprite("Letter")


def test_starts_top_left(run):
    letter = _start(run)
    assert (round(letter.x), round(letter.y)) == (-150, 100), f"at ({letter.x}, {letter.y})"
    assert letter.bubble == "Drag me!", f"the Letter shows {letter.bubble!r}"


def test_draggable_after_green_flag(run):
    assert _start(run).draggable, "the Letter should be draggable in the player after the flag"


def test_l_locks(run):
    _start(run)
    run.press("l").frames(2)
    letter = run.sprite("Letter")
    assert not letter.draggable, "after l the Letter must not be draggable"
    assert (letter.bubble, letter.bubble_type) == ("Locked", "think"), (
        f"the Letter shows {letter.bubble!r} ({letter.bubble_type})"
    )


def test_u_unlocks(run):
    _start(run)
    run.press("l").frames(2).press("u").frames(2)
    letter = run.sprite("Letter")
    assert letter.draggable, "after l then u the Letter should be draggable again"
    assert (letter.bubble, letter.bubble_type) == ("Unlocked", "think"), f"{letter.bubble!r}"


def test_click_home_brings_it_home(run):
    _start(run)
    run.frames(70).click("Home").frames(3)
    letter = run.sprite("Letter")
    assert (round(letter.x), round(letter.y)) == (150, -100), (
        f"the Letter is at ({letter.x}, {letter.y}), not on Home at (150, -100)"
    )
    assert letter.bubble == "Home!", f"the Letter shows {letter.bubble!r}"
