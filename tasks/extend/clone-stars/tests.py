"""Tests of clone-stars: five visible clones in a row, the original hidden, clicking still works."""

from scratch_gym.tasks import Clones


def test_five_clones(run):
    run.green_flag()
    run.wait_until(Clones("Star") == 5, frames=30, message="there are never 5 Star clones")
    run.frames(10)
    assert len(run.clones("Star")) == 5, f"{len(run.clones('Star'))} clones after 10 more frames"


def test_clones_in_a_row_80_apart(run):
    run.green_flag().frames(15)
    xs = sorted(round(c.x) for c in run.clones("Star"))
    ys = {round(c.y) for c in run.clones("Star")}
    assert xs == [-200, -120, -40, 40, 120] and ys == {0}, f"clones at x {xs}, y {ys}"


def test_clones_visible_original_hidden(run):
    run.green_flag().frames(15)
    star = run.sprite("Star")
    assert not star.visible, "the original Star should stay hidden"
    shown = [c.visible for c in star.clones]
    assert shown and all(shown), f"clone visibility: {shown}"


def test_click_still_twinkles(run):
    run.green_flag().frames(15)
    run.click("Star").frames(2)
    assert run.sprite("Star").bubble == "Twinkle!", f"the Star says {run.sprite('Star').bubble!r}"
