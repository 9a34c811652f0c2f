"""Tests of fix-bounce: the ball reaches each edge, turns back and keeps crossing the stage."""

from scratch_gym.tasks import Sprite


def test_turns_back_at_the_right_edge(run):
    run.green_flag()
    run.wait_until(
        Sprite("Ball").x > 200, frames=60, message="the ball never reached the right edge"
    )
    run.wait_until(Sprite("Ball").direction == -90, frames=10, message="it did not turn back")


def test_comes_back_across_the_stage(run):
    run.green_flag()
    run.wait_until(
        Sprite("Ball").x > 200, frames=60, message="the ball never reached the right edge"
    )
    run.wait_until(Sprite("Ball").x < -200, frames=90, message="it never reached the left edge")


def test_keeps_bouncing(run):
    run.green_flag()
    run.seconds(6)
    positions = []
    for _ in range(10):
        run.frames(1)
        positions.append(run.sprite("Ball").x)
    assert all(-240 < x < 240 for x in positions), f"the ball left the stage: {positions}"
    assert len(set(positions)) == len(positions), f"the ball stopped moving: {positions}"
