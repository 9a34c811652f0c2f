"""Tests of fix-reaction-timer: the Light is red for two seconds, then green; the time from green
to the space key is measured in milliseconds and said; pressing space while red is Too soon!"""

from scratch_gym.tasks import Said, Sprite


def _react_after(run, seconds):
    run.green_flag()
    run.wait_until(
        Sprite("Light").costume == "green", frames=90, message="the Light never went green"
    )
    run.seconds(seconds)
    run.press("space", 3)
    run.wait_until(Said("Light").includes_text(" ms"), frames=10, message="no reaction time said")
    return float(run.var("reaction"))


def test_red_for_two_seconds_then_green(run):
    run.green_flag().frames(30)
    assert run.sprite("Light").costume == "red", "the Light should start red"
    run.frames(25)
    assert run.sprite("Light").costume == "red", "the Light should stay red for two seconds"
    run.wait_until(Sprite("Light").costume == "green", frames=15, message="not green after 2 s")


def test_fast_reaction(run):
    ms = _react_after(run, 0.3)
    assert 280 <= ms <= 400, f"pressed space 0.3 s after green, measured {ms} ms"


def test_slow_reaction(run):
    ms = _react_after(run, 1.5)
    assert 1480 <= ms <= 1600, f"pressed space 1.5 s after green, measured {ms} ms"


def test_says_the_time(run):
    ms = _react_after(run, 0.5)
    said = run.sprite("Light").bubble
    assert said == f"{round(ms)} ms", f"the Light says {said!r} for reaction {ms}"


def test_too_soon_while_red(run):
    run.green_flag().frames(20)
    run.press("space", 2).frames(3)
    run.expect(Said("Light").contains("Too soon!"), "space while red should be Too soon!")
    run.expect(~Said("Light").includes_text(" ms"), "no reaction time for a press while red")
