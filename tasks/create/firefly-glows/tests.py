"""Tests of firefly-glows: the start, lighting up under the pointer, going dark, counting clicks."""

from scratch_gym.tasks import Sprite


def test_green_flag_sets_up_dark(run):
    run.mouse_move(-200, 150)
    run.green_flag().frames(2)
    f = run.sprite("Firefly")
    assert (round(f.x), round(f.y)) == (0, 0), f"the Firefly is at {f.x}, {f.y}"
    assert f.costume == "dark" and f.bubble is None, f"costume {f.costume}, bubble {f.bubble}"
    assert str(run.var("catches")) == "0", f"catches is {run.var('catches')}, not reset to 0"


def test_lights_up_under_the_pointer_and_goes_dark_after(run):
    run.mouse_move(-200, 150)
    run.green_flag().frames(2)
    run.mouse_move(8, -5)
    run.wait_until(Sprite("Firefly").costume == "lit", frames=10, message="it never lit up")
    run.expect(Sprite("Firefly").bubble == "Hi!", "it lit up without saying Hi!")
    run.mouse_move(100, 100)
    run.wait_until(Sprite("Firefly").costume == "dark", frames=10, message="it stayed lit")
    run.expect(Sprite("Firefly").bubble == "", "it still says Hi! away from the pointer")


def test_counts_clicks(run):
    run.mouse_move(-200, 150)
    run.green_flag().frames(2)
    for _ in range(3):
        run.mouse_move(0, 0).mouse_down().frames(2).mouse_up().frames(2)
    assert run.var("catches") == 3, f"catches is {run.var('catches')} after 3 clicks"
    run.mouse_move(-200, 150).mouse_down().frames(2).mouse_up().frames(2)
    assert run.var("catches") == 3, "a click away from the Firefly counted"
