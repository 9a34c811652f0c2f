"""Tests of brush-drag: the start at the Palette, following the held mouse with the distance
thought, staying put while the button is up, and gliding home on release."""

PALETTE = (-180, -130)


def _pos(run):
    b = run.sprite("Brush")
    return round(b.x), round(b.y)


def test_starts_at_the_palette(run):
    run.mouse_move(100, 100)
    run.green_flag().frames(5)
    assert _pos(run) == PALETTE, f"the Brush is at {_pos(run)}"


def test_follows_the_held_mouse_and_thinks_the_distance(run):
    run.green_flag().frames(2)
    run.mouse_move(100, 50).mouse_down().frames(3)
    b = run.sprite("Brush")
    assert _pos(run) == (100, 50), f"the Brush is at {_pos(run)}, not at the mouse"
    assert b.bubble == "333" and b.bubble_type == "think", f"the Brush thinks {b.bubble!r}"
    run.mouse_move(-20, 100).frames(3)
    assert _pos(run) == (-20, 100), f"the Brush did not follow the mouse: {_pos(run)}"
    assert run.sprite("Brush").bubble == "280", f"thinks {run.sprite('Brush').bubble!r}"


def test_ignores_the_mouse_while_the_button_is_up(run):
    run.green_flag().frames(2)
    run.mouse_move(100, 100).frames(10)
    assert _pos(run) == PALETTE, f"the Brush moved without the button: {_pos(run)}"


def test_glides_home_on_release(run):
    run.green_flag().frames(2)
    run.mouse_move(120, 70).mouse_down().frames(3)
    run.mouse_up().frames(15)
    x, y = _pos(run)
    assert -170 < x < 110 and -120 < y < 60, f"half-way home the Brush is at {(x, y)}"
    assert run.sprite("Brush").bubble is None, "the Brush should stop thinking on release"
    run.frames(25)
    assert _pos(run) == PALETTE, f"after the glide the Brush is at {_pos(run)}"
