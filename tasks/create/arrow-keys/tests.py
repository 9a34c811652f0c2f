"""Tests of arrow-keys: each arrow moves 10 steps its way, every press counts, other keys do not."""


def _position(run):
    sprite = run.sprite("Sprite1")
    return round(sprite.x), round(sprite.y)


def test_right_arrow(run):
    run.press("right arrow").frames(2)
    assert _position(run) == (10, 0), f"after one right arrow the sprite is at {_position(run)}"


def test_left_arrow(run):
    run.press("left arrow").frames(2)
    assert _position(run) == (-10, 0), f"after one left arrow the sprite is at {_position(run)}"


def test_up_and_down_arrows(run):
    run.press("up arrow").press("up arrow").press("down arrow").frames(2)
    assert _position(run) == (0, 10), f"after up, up, down the sprite is at {_position(run)}"


def test_every_press_counts_and_other_keys_do_nothing(run):
    for key in ("right arrow", "right arrow", "space", "a", "right arrow", "down arrow"):
        run.press(key).frames(1)
    assert _position(run) == (30, -10), (
        f"after 3 right and 1 down the sprite is at {_position(run)}"
    )
