"""Tests of add-jump: walking still works; space goes up 60, waits about 0.3 s, lands again."""

from scratch_gym.tasks import Sprite


def test_walks_right_and_left(run):
    run.press("right arrow").press("right arrow").press("left arrow").frames(2)
    assert round(run.sprite("Sprite1").x) == 10, (
        f"x is {run.sprite('Sprite1').x} after right, right, left"
    )


def test_space_jumps_up_60(run):
    run.press("space")
    run.wait_until(
        Sprite("Sprite1").y >= -40, frames=5, message="space did not lift Sprite1 60 steps"
    )
    assert round(run.sprite("Sprite1").y) == -40, f"y is {run.sprite('Sprite1').y}, not -40"


def test_lands_after_about_a_third_of_a_second(run):
    run.press("space")
    run.wait_until(Sprite("Sprite1").y > -100, frames=5, message="space did not lift Sprite1")
    up_at = run.frame
    run.wait_until(Sprite("Sprite1").y == -100, frames=30, message="Sprite1 never came back down")
    seconds = (run.frame - up_at) / 30
    assert 0.25 <= seconds <= 0.45, f"Sprite1 stayed up {seconds:.2f} s, not about 0.3 s"


def test_can_walk_while_jumping(run):
    run.press("space").press("right arrow").frames(20)
    sprite = run.sprite("Sprite1")
    assert (round(sprite.x), round(sprite.y)) == (10, -100), f"ended at ({sprite.x}, {sprite.y})"
