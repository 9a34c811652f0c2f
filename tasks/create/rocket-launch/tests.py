"""Tests of rocket-launch: the set-up, the countdown, waiting for it, the flight, the sky."""

from scratch_gym.tasks import Sprite


def _launch(run):
    run.green_flag().frames(3)
    start = run.frame
    run.click("Button").frames(1)
    return start


def test_green_flag_sets_up(run):
    run.green_flag().frames(3)
    r = run.sprite("Rocket")
    assert run.backdrop == "ground", f"the backdrop is {run.backdrop!r}"
    assert run.sprite("Button").visible, "the Button should show"
    assert (round(r.x), round(r.y), round(r.size)) == (0, -120, 100), f"({r.x}, {r.y}) {r.size}%"
    assert r.visible and r.costume == "ready", f"visible {r.visible}, costume {r.costume!r}"
    assert str(run.var("count")) == "3", f"count is {run.var('count')!r}"


def test_countdown(run):
    _launch(run)
    assert not run.sprite("Button").visible, "the Button should hide when clicked"
    run.seconds(2.5)
    assert run.sprite("Rocket").bubble == "1", (
        f"at 2.5 s the Rocket says {run.sprite('Rocket').bubble!r}"
    )
    run.seconds(0.8)
    r = run.sprite("Rocket")
    assert run.said("Rocket") == ["3", "2", "1", "Liftoff!"], f"said {run.said('Rocket')}"
    assert round(r.y) == -120 and r.costume == "ready", "the Rocket left before the countdown ended"
    assert str(run.var("count")) == "0", f"count is {run.var('count')!r}"


def test_lifts_off_after_the_countdown(run):
    start = _launch(run)
    run.wait_until(Sprite("Rocket").y > -120, frames=150, message="the Rocket never took off")
    seconds = (run.frame - start) / 30
    assert 3.3 <= seconds <= 3.9, f"lift-off {seconds:.2f} s after the click, not about 3.5 s"
    assert run.sprite("Rocket").costume == "flying", "the Rocket should use its flying costume"
    y0, size0 = run.sprite("Rocket").y, run.sprite("Rocket").size
    run.frames(5)
    r = run.sprite("Rocket")
    assert (round(r.y - y0), round(r.size - size0)) == (50, -10), f"5 steps: y {r.y}, size {r.size}"


def test_flies_away_and_hides(run):
    _launch(run)
    run.wait_until(Sprite("Rocket").visible.falsy(), frames=200, message="it never hid")
    r = run.sprite("Rocket")
    assert 150 < r.y <= 165 and round(r.size) == 44, f"hid at y {r.y}, size {r.size}"


def test_space_one_second_after_liftoff(run):
    _launch(run)
    run.wait_until(Sprite("Rocket").y > -120, frames=150, message="the Rocket never took off")
    run.seconds(0.8)
    assert run.backdrop == "ground", "the backdrop changed less than a second after lift-off"
    run.seconds(0.4)
    assert run.backdrop == "space", f"the backdrop is {run.backdrop!r} 1.2 s after lift-off"
