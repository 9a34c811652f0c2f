"""Tests of fix-owl-night: day, sunset and night two seconds apart; the Rooster crows at the start
and goes to bed at sunset; the Owl sleeps through day and sunset and wakes up at night."""

from scratch_gym.tasks import Backdrop, Said, Sprite


def test_day_sunset_night(run):
    run.green_flag().frames(3)
    assert run.backdrop == "day", f"backdrop {run.backdrop} at the start"
    run.wait_until(Backdrop() == "sunset", frames=65, message="no sunset after 2 s")
    assert 1.9 <= run.time <= 2.1, f"sunset after {run.time:.2f} s"
    run.wait_until(Backdrop() == "night", frames=65, message="no night after 4 s")


def test_rooster(run):
    run.green_flag().frames(3)
    run.expect(Sprite("Rooster").bubble == "Cock-a-doodle-doo!", "the Rooster crows at the start")
    run.wait_until(Backdrop() == "sunset", frames=65, message="no sunset")
    run.frames(2)
    run.expect(Sprite("Rooster").bubble == "Time for bed!", "the Rooster goes to bed at sunset")


def test_owl_sleeps_through_day_and_sunset(run):
    run.green_flag().frames(3)
    run.expect(Sprite("Owl").costume == "asleep", "the Owl sleeps during the day")
    run.wait_until(Backdrop() == "sunset", frames=65, message="no sunset")
    run.frames(30)
    run.expect(Sprite("Owl").costume == "asleep", "the Owl still sleeps at sunset")
    run.expect(~Said("Owl").contains("Hoo! Hoo!"), "no Hoo! before night")


def test_owl_wakes_at_night(run):
    run.green_flag()
    run.wait_until(Backdrop() == "night", frames=130, message="no night")
    run.frames(2)
    run.expect(Sprite("Owl").costume == "awake", "the Owl wakes at night")
    run.expect(Sprite("Owl").bubble == "Hoo! Hoo!", "the Owl hoots at night")
