"""Tests of stopwatch: the reset, waiting for space, a tick about every half second, laps, and
stopping with s."""

from scratch_gym.tasks import Var


def _hand(run):
    h = run.sprite("Hand")
    return round(h.direction) % 360, int(float(run.var("ticks"))), int(float(run.var("laps")))


def _start(run):
    run.green_flag().frames(5)
    run.press("space")
    return run.frame


def test_green_flag_resets_and_waits_for_space(run):
    run.set_variable("ticks", 7).set_variable("laps", 3)
    run.green_flag().seconds(2)
    assert _hand(run) == (0, 0, 0), f"direction, ticks, laps before space: {_hand(run)}"


def test_ticks_every_half_second(run):
    start = _start(run)
    run.wait_until(Var("ticks") == 1, frames=40, message="the first tick never came")
    seconds = (run.frame - start) / 30
    assert 0.45 <= seconds <= 0.65, f"the first tick came after {seconds:.2f} s"
    assert _hand(run) == (30, 1, 0), f"after one tick: {_hand(run)}"
    run.wait_until(Var("ticks") == 4, frames=90, message="the fourth tick never came")
    seconds = (run.frame - start) / 30
    assert 1.9 <= seconds <= 2.3, f"the fourth tick came after {seconds:.2f} s"
    assert _hand(run) == (120, 4, 0), f"after four ticks: {_hand(run)}"


def test_full_turn_is_a_lap(run):
    _start(run)
    run.wait_until(Var("ticks") == 11, frames=240, message="there were never 11 ticks")
    assert _hand(run) == (330, 11, 0), f"after 11 ticks: {_hand(run)}"
    run.wait_until(Var("ticks") == 12, frames=30, message="there was never a 12th tick")
    assert _hand(run) == (0, 12, 1), f"after 12 ticks: {_hand(run)}"
    run.wait_until(Var("ticks") == 14, frames=60, message="there was never a 14th tick")
    assert _hand(run) == (60, 14, 1), f"after 14 ticks: {_hand(run)}"


def test_s_stops_and_thinks_the_laps(run):
    _start(run)
    run.wait_until(Var("ticks") == 13, frames=300, message="there were never 13 ticks")
    run.press("s", frames=20)
    stopped = _hand(run)
    run.seconds(2)
    assert _hand(run) == stopped, f"the Hand kept ticking after s: {stopped} -> {_hand(run)}"
    h = run.sprite("Hand")
    assert h.bubble == "Laps: 1" and h.bubble_type == "think", f"the Hand shows {h.bubble!r}"
