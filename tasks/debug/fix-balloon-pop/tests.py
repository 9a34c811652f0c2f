"""Tests of fix-balloon-pop: balloons (clones) rise from the bottom; clicking one pops it and
counts; hovering over one, or clicking the empty sky, pops nothing; escaped balloons go away."""

from scratch_gym.tasks import Clones, Var


def _point_at_first_balloon(run):
    balloon = run.clones("Balloon")[0]
    run.mouse_move(balloon.x, balloon.y + 12)
    return len(run.clones("Balloon"))


def test_balloons_rise(run):
    run.mouse_move(235, 175)
    run.green_flag().frames(2)
    first = run.clones("Balloon")[0]
    assert first.visible, "a new balloon should be visible"
    run.frames(10)
    later = run.clones("Balloon")[0]
    assert later.y >= first.y + 25, f"the balloon went from y {first.y} to {later.y}"
    assert not run.sprite("Balloon").visible, "the original Balloon stays hidden"


def test_click_pops_a_balloon(run):
    run.mouse_move(235, 175)
    run.green_flag().frames(20)
    _point_at_first_balloon(run)
    run.mouse_down().frames(2).mouse_up().frames(1)
    run.expect(Var("popped") == 1, "clicking a balloon pops one")


def test_hovering_does_not_pop(run):
    run.mouse_move(235, 175)
    run.green_flag().frames(20)
    before = _point_at_first_balloon(run)
    run.frames(2)
    run.expect(Var("popped") == 0, "hovering must not pop")
    assert len(run.clones("Balloon")) == before, "a balloon vanished while hovering"


def test_clicking_the_sky_does_not_pop(run):
    run.mouse_move(235, 175)
    run.green_flag().frames(40)
    before = len(run.clones("Balloon"))
    run.mouse_down().frames(2).mouse_up()
    run.expect(Var("popped") == 0, "clicking where there is no balloon")
    assert len(run.clones("Balloon")) == before, "balloons vanished after a click on the sky"


def test_escaped_balloons_go_away(run):
    run.mouse_move(235, 175)
    run.green_flag().seconds(6)
    run.expect(Clones("Balloon") <= 8, "balloons that float off the top should be deleted")
    run.expect(Clones("Balloon") >= 6, "new balloons keep coming")
