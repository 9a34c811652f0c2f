"""Tests of swimming-fish: the start, moving speed steps per frame, bouncing, faster on click."""

from scratch_gym.tasks import Sprite


def test_green_flag_sets_up(run):
    run.green_flag().frames(1)
    fish = run.sprite("Fish")
    assert fish.rotation_style == "left-right", f"rotation style is {fish.rotation_style!r}"
    assert round(fish.direction) == 90, f"direction is {fish.direction}"
    assert round(fish.y) == 0 and -1 <= fish.x <= 5, f"the Fish is at ({fish.x}, {fish.y})"
    assert str(run.var("speed", "Fish")) == "4", f"speed is {run.var('speed', 'Fish')!r}"


def test_swims_four_steps_a_frame(run):
    run.green_flag().frames(2)
    x0 = run.sprite("Fish").x
    run.frames(10)
    dx = run.sprite("Fish").x - x0
    assert round(dx) == 40, f"the Fish moved {dx} in 10 frames, not 40"


def test_bounces_off_the_right_edge(run):
    run.green_flag()
    run.wait_until(Sprite("Fish").direction == -90, frames=90, message="the Fish never turned")
    x = run.sprite("Fish").x
    assert x > 150, f"the Fish turned around at x {x}, not at the right edge"
    run.frames(20)
    assert run.sprite("Fish").x < x - 60, "the Fish did not swim back to the left"
    run.wait_until(Sprite("Fish").direction == 90, frames=150, message="no bounce on the left")


def test_clicks_make_it_faster(run):
    run.green_flag().frames(2)
    run.click("Fish").frames(2)
    assert run.sprite("Fish").bubble == "Speed 6", f"bubble {run.sprite('Fish').bubble!r}"
    x0 = run.sprite("Fish").x
    run.frames(5)
    assert round(run.sprite("Fish").x - x0) == 30, "after one click the Fish should move 6 a frame"
    run.seconds(1)
    assert run.sprite("Fish").bubble is None, "Speed 6 should show for 1 second"
    run.click("Fish").frames(2)
    assert run.sprite("Fish").bubble == "Speed 8", f"bubble {run.sprite('Fish').bubble!r}"
