"""Tests of frog-jump: the set-up, one smooth jump per stage click, the count, being tired."""

from scratch_gym.tasks import Sprite


def _jump(run):
    run.click("Stage").frames(30)


def test_green_flag_sets_up(run):
    run.set_variable("jumps", 4)
    run.green_flag().frames(2)
    f = run.sprite("Frog")
    assert round(f.y) == -120 and f.costume == "sit", f"y {f.y}, costume {f.costume!r}"
    assert str(run.var("jumps")) == "0", f"jumps is {run.var('jumps')!r}"


def test_jump_goes_up_smoothly_and_lands(run):
    run.green_flag().frames(2)
    run.click("Stage").frames(5)
    f = run.sprite("Frog")
    assert f.costume == "jump" and -100 <= f.y <= -70, f"5 frames in: y {f.y}, {f.costume!r}"
    run.wait_until(Sprite("Frog").y >= -40, frames=10, message="the Frog never reached y -40")
    assert round(run.sprite("Frog").y) == -40, f"the top of the jump is {run.sprite('Frog').y}"
    run.wait_until(Sprite("Frog").y <= -120, frames=15, message="the Frog never landed")
    run.frames(1)
    f = run.sprite("Frog")
    assert round(f.y) == -120 and f.costume == "sit", f"after landing: y {f.y}, {f.costume!r}"
    assert str(run.var("jumps")) == "1", f"jumps is {run.var('jumps')!r}"


def test_not_tired_before_the_fifth_jump(run):
    run.green_flag().frames(2)
    for _ in range(4):
        _jump(run)
    assert run.said("Frog") == [], f"the Frog thought {run.said('Frog')} in four jumps"
    assert str(run.var("jumps")) == "4", f"jumps is {run.var('jumps')!r}"


def test_tired_after_the_fifth_jump(run):
    run.green_flag().frames(2)
    for _ in range(5):
        _jump(run)
    f = run.sprite("Frog")
    assert f.bubble == "I'm tired!" and f.bubble_type == "think", f"the Frog shows {f.bubble!r}"
    run.seconds(1)
    assert run.sprite("Frog").bubble is None, "I'm tired! should last 1 second"
    _jump(run)
    assert run.sprite("Frog").bubble == "I'm tired!", "still tired after the sixth jump"
