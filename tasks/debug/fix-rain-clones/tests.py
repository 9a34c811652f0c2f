"""Tests of fix-rain-clones: twelve raindrop clones appear at the top, fall, are counted and
splash into the Puddle when they reach the bottom, and then disappear."""

from scratch_gym.tasks import Clones, Var


def test_drops_appear_at_the_top(run):
    run.green_flag().frames(2)
    clones = run.clones("Raindrop")
    assert len(clones) == 1, f"{len(clones)} raindrops after 2 frames"
    assert clones[0].visible and clones[0].y > 130, (
        f"drop at y {clones[0].y}, visible {clones[0].visible}"
    )
    assert not run.sprite("Raindrop").visible, "the original Raindrop should stay hidden"


def test_drops_fall(run):
    run.green_flag().frames(12)
    ys = [c.y for c in run.clones("Raindrop")]
    assert ys and min(ys) < 100, f"the raindrops are still at the top: y {ys}"
    assert all(y > -170 for y in ys), f"drops left the stage: {ys}"


def test_each_drop_counts_once_at_the_bottom(run):
    run.green_flag().frames(20)
    run.expect(Var("drops") == 0, "no drop has reached the bottom yet after 20 frames")
    run.wait_until(Var("drops") == 1, frames=30, message="the first drop never counted")
    run.wait_until(Var("drops") == 12, frames=150, message="not all 12 drops counted")
    run.frames(30)
    run.expect(Var("drops") == 12, "12 drops, counted once each")


def test_drops_vanish_after_landing(run):
    run.green_flag()
    run.wait_until(Var("drops") == 12, frames=200, message="not all 12 drops landed")
    run.wait_until(Clones("Raindrop") == 0, frames=5, message="landed drops stay on the stage")


def test_puddle_grows_with_each_splash(run):
    run.green_flag()
    run.wait_until(Var("drops") == 12, frames=200, message="not all 12 drops landed")
    run.frames(5)
    size = run.sprite("Puddle").size
    assert round(size) == 220, f"the Puddle is {size}% after 12 splashes, not 220%"
