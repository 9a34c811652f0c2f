"""Tests of say-hello: the bubbles, their order and their timing (virtual time)."""

from scratch_gym.tasks import Sprite


def test_says_hello_first(run):
    run.green_flag()
    run.frames(3)
    cat = run.sprite("Sprite1")
    assert cat.bubble == "Hello!" and cat.bubble_type == "say", f"bubble is {cat.bubble!r}"


def test_hello_lasts_two_seconds(run):
    run.green_flag()
    run.seconds(1.8)
    assert run.sprite("Sprite1").bubble == "Hello!", "the Hello! bubble went away too early"
    frames = run.wait_until(Sprite("Sprite1").bubble == "Hmm...", frames=30)
    assert 1.9 <= run.time <= 2.2, f"Hmm... came after {run.time:.2f} s, not about 2 s ({frames})"


def test_thinks_then_stops(run):
    run.green_flag()
    run.seconds(2.5)
    cat = run.sprite("Sprite1")
    assert cat.bubble == "Hmm..." and cat.bubble_type == "think", f"bubble is {cat.bubble!r}"
    run.seconds(1)
    assert run.sprite("Sprite1").bubble is None, "the think bubble should be gone after 1 second"
