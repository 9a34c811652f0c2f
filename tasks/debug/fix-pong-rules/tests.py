"""Tests of fix-pong-rules: the Paddle follows the mouse, the Ball bounces off the walls and off
the Paddle (scoring), a Ball that reaches the red floor costs a life and is served again from the
top, and the third miss ends the game."""

from scratch_gym.tasks import Said, Sprite, Var


def test_paddle_follows_the_mouse(run):
    run.mouse_move(-90, 0)
    run.green_flag().frames(3)
    p = run.sprite("Paddle")
    assert (round(p.x), round(p.y)) == (-90, -140), f"Paddle at ({p.x}, {p.y})"


def test_ball_bounces_off_the_paddle_and_scores(run):
    run.mouse_move(128, 0)
    run.green_flag()
    run.wait_until(Var("score") == 1, frames=45, message="the Ball never scored off the Paddle")
    run.expect(Sprite("Ball").direction.approx(30, 1), "the Ball should bounce up and to the right")
    run.frames(6)
    ball = run.sprite("Ball")
    assert ball.y > -100 and ball.x > 140, f"the Ball did not go back up: ({ball.x}, {ball.y})"
    run.expect(Var("lives") == 3, "no life lost on a paddle hit")
    run.expect(Var("score") == 1, "one hit scores once")


def test_miss_costs_a_life_and_serves_again(run):
    run.mouse_move(0, 0)
    run.green_flag()
    run.wait_until(Var("lives") < 3, frames=60, message="missing the Ball never cost a life")
    run.expect(Var("lives") == 2, "one miss costs one life")
    ball = run.sprite("Ball")
    assert (round(ball.x), round(ball.y)) == (0, 100), f"the Ball restarts at ({ball.x}, {ball.y})"
    assert round(ball.direction) == -150, f"the serve goes in direction {ball.direction}"
    run.frames(30)
    run.expect(Var("lives") == 2, "still two lives while the new serve is in the air")
    run.expect(Var("score") == 0, "a miss does not score")


def test_three_misses_end_the_game(run):
    run.mouse_move(0, 0)
    run.green_flag()
    run.wait_until(Said("Ball").contains("Game over!"), frames=200, message="no Game over!")
    run.expect(Var("lives") == 0, "lives at game over")
    before = run.sprite("Ball")
    run.mouse_move(150, 0).frames(10)
    after, paddle = run.sprite("Ball"), run.sprite("Paddle")
    assert (after.x, after.y) == (before.x, before.y), "the Ball still moves after Game over!"
    assert round(paddle.x) == 0, "the Paddle still follows the mouse after Game over!"
    run.expect(Var("lives") == 0, "lives stay at 0")


def test_ball_bounces_off_the_walls(run):
    run.mouse_move(128, 0)
    run.green_flag()
    run.wait_until(Var("score") == 1, frames=45, message="the Ball never scored off the Paddle")
    run.wait_until(Sprite("Ball").direction.approx(-30, 1), frames=40, message="no wall bounce")
