"""Tests of fix-jump-landing: the Player stands on the grass, walks both ways, jumps about 105
steps high and lands back on the grass (only one jump at a time), and collects the Coin."""

from scratch_gym.tasks import Sprite, Var


def test_stands_on_the_grass(run):
    run.green_flag().frames(30)
    player = run.sprite("Player")
    assert round(player.y) == -120, f"the Player is at y {player.y}, not on the grass at -120"
    run.expect(Var("vy") == 0, "vy while standing still")


def test_walks_right_and_left(run):
    run.green_flag().frames(2)
    run.key_down("right arrow").frames(10).key_up("right arrow").frames(2)
    p = run.sprite("Player")
    assert (round(p.x), round(p.y), p.direction) == (50, -120, 90), (
        f"at ({p.x}, {p.y}) {p.direction}"
    )
    run.key_down("left arrow").frames(20).key_up("left arrow").frames(2)
    p = run.sprite("Player")
    assert (round(p.x), round(p.y), p.direction) == (-50, -120, -90), (
        f"at ({p.x}, {p.y}) {p.direction}"
    )


def test_jumps_about_105_and_lands(run):
    run.green_flag().frames(5)
    run.press("space", 2)
    run.wait_until(Sprite("Player").y > -20, frames=20, message="the jump never got near y -15")
    assert not run.until(Sprite("Player").y > -14, frames=10), "the jump went too high"
    run.wait_until(Sprite("Player").y == -120, frames=30, message="the Player never landed")
    run.frames(15)
    assert round(run.sprite("Player").y) == -120, f"after landing y is {run.sprite('Player').y}"


def test_no_jumping_in_mid_air(run):
    run.green_flag().frames(5)
    run.press("space", 2).frames(6)
    run.press("space", 2)
    assert not run.until(Sprite("Player").y > -14, frames=30), (
        "a second jump in mid-air went higher"
    )


def test_collects_the_coin(run):
    run.green_flag().frames(2)
    run.key_down("right arrow").frames(20).key_up("right arrow")
    run.press("space", 2)
    run.wait_until(Var("coins") == 1, frames=30, message="jumping at the Coin did not collect it")
    run.wait_until(Sprite("Player").y == -120, frames=40, message="the Player never landed")
