"""Tests of fix-apple-catch: the Bowl follows the mouse along the bottom, catches count as score,
apples that reach the ground count as missed, and three misses end the game."""

from scratch_gym.tasks import Sprite, Var, idle


def _away_from(x):
    return -220 if x > 0 else 220


def test_bowl_follows_the_mouse_along_the_bottom(run):
    run.mouse_move(100, 50)
    run.green_flag().frames(3)
    bowl = run.sprite("Bowl")
    assert (round(bowl.x), round(bowl.y)) == (100, -140), f"Bowl at ({bowl.x}, {bowl.y})"
    run.mouse_move(-150, 0).frames(3)
    bowl = run.sprite("Bowl")
    assert (round(bowl.x), round(bowl.y)) == (-150, -140), f"Bowl at ({bowl.x}, {bowl.y})"


def test_catching_an_apple_scores(run):
    run.green_flag().frames(1)
    run.mouse_move(run.sprite("Apple").x, 0)
    run.wait_until(Var("score") == 1, frames=90, message="catching the apple never scored")
    run.expect(Var("missed") == 0, "a caught apple is not missed")
    assert run.sprite("Apple").y > 150, "the apple did not start again at the top"


def test_apple_on_the_ground_is_missed(run):
    run.green_flag().frames(1)
    run.mouse_move(_away_from(run.sprite("Apple").x), 0)
    run.wait_until(Var("missed") == 1, frames=90, message="a dropped apple never counted as missed")
    run.expect(Var("score") == 0, "a dropped apple must not score")


def test_three_misses_end_the_game(run):
    run.green_flag().frames(1)
    for i in range(3):
        run.mouse_move(_away_from(run.sprite("Apple").x), 0)
        run.wait_until(Var("missed") >= i + 1, frames=90, message=f"miss {i + 1} never counted")
    run.wait_until(idle(), frames=5, message="the game did not stop after three misses")
    run.expect(Sprite("Apple").bubble == "Game over!", "the Apple should say Game over!")
