"""Tests of rain-cloud: the Cloud still moves with the arrows and the Raindrop stays hidden; a
stage click drops 3 visible raindrop clones, 0.2 s apart, from under the Cloud; they fall and
disappear at the bottom."""

from scratch_gym.tasks import Clones


def _rain(run, rights=3):
    run.green_flag().frames(2)
    for _ in range(rights):
        run.press("right arrow").frames(1)
    run.click("Stage")
    run.wait_until(Clones("Raindrop") >= 1, frames=10, message="no raindrop after a stage click")


def test_cloud_moves_with_arrows(run):
    run.green_flag().frames(2)
    run.press("right arrow").frames(1).press("right arrow").frames(1).press("left arrow").frames(2)
    cloud = run.sprite("Cloud")
    assert (round(cloud.x), round(cloud.y)) == (20, 120), f"Cloud at ({cloud.x}, {cloud.y})"
    assert not run.sprite("Raindrop").visible, "the Raindrop itself should stay hidden"
    assert len(run.clones("Raindrop")) == 0, "no rain before the stage is clicked"


def test_drops_start_under_the_cloud(run):
    _rain(run)
    drop = run.clones("Raindrop")[0]
    assert drop.visible, "raindrops must be visible"
    assert round(drop.x) == 60, f"the drop fell at x {drop.x}, the Cloud is at x 60"
    assert 75 <= drop.y <= 90, f"the drop starts at y {drop.y}, not about 30 below the Cloud (120)"


def test_three_drops_a_fifth_of_a_second_apart(run):
    _rain(run)
    run.frames(3)
    assert len(run.clones("Raindrop")) == 1, "the drops should not all come at once"
    waited = run.wait_until(Clones("Raindrop") == 2, frames=20, message="no second drop")
    assert 1 <= waited <= 5, f"the second drop came {waited + 3} frames after the first, not 6"
    run.wait_until(Clones("Raindrop") == 3, frames=20, message="there are never 3 drops")
    run.frames(8)
    assert len(run.clones("Raindrop")) == 3, f"{len(run.clones('Raindrop'))} drops, not 3"


def test_drops_fall_and_disappear(run):
    _rain(run, rights=0)
    y0 = run.clones("Raindrop")[0].y
    run.frames(5)
    assert run.clones("Raindrop")[0].y < y0 - 15, "the drop does not fall"
    run.wait_until(Clones("Raindrop") == 3, frames=20, message="there are never 3 drops")
    run.wait_until(Clones("Raindrop") == 0, frames=120, message="the drops never disappear")
    assert not run.sprite("Raindrop").visible, "the Raindrop itself should stay hidden"
