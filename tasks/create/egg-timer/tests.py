"""Tests of egg-timer: the set-up, cooking for 5 s after a click, the timer hat only when cooking."""


def _egg(run):
    return run.sprite("Egg").costume


def test_green_flag_sets_up(run):
    run.set_variable("cooking", 1)
    run.green_flag().frames(2)
    assert _egg(run) == "raw", f"the Egg shows {_egg(run)!r}"
    assert str(run.var("cooking")) == "0", f"cooking is {run.var('cooking')!r}"


def test_nothing_happens_without_cooking(run):
    run.set_variable("cooking", 1)
    run.green_flag().seconds(6)
    assert _egg(run) == "raw" and run.said("Egg") == [], f"{_egg(run)!r}, {run.said('Egg')}"


def test_cooks_for_five_seconds_after_a_click(run):
    run.green_flag().seconds(1)
    run.click("Egg").frames(3)
    assert _egg(run) == "cooking", f"the Egg shows {_egg(run)!r} after a click"
    assert str(run.var("cooking")) == "1", f"cooking is {run.var('cooking')!r}"
    assert run.timer < 0.5, f"the timer shows {run.timer:.2f} s right after the click"
    run.seconds(4.6)
    assert _egg(run) == "cooking", f"the Egg shows {_egg(run)!r} 4.7 s after the click"
    run.seconds(0.6)
    assert _egg(run) == "done", f"the Egg shows {_egg(run)!r} 5.3 s after the click"
    assert run.sprite("Egg").bubble == "Ding!", f"bubble {run.sprite('Egg').bubble!r}"
    run.seconds(2.2)
    assert str(run.var("cooking")) == "0" and run.sprite("Egg").bubble is None, "after Ding!"


def test_late_click_still_waits_five_seconds(run):
    run.green_flag().seconds(7)
    run.click("Egg").frames(3)
    run.seconds(4.6)
    assert _egg(run) == "cooking", f"the Egg shows {_egg(run)!r} 4.7 s after a late click"
    run.seconds(0.6)
    assert _egg(run) == "done", f"the Egg shows {_egg(run)!r} 5.3 s after a late click"


def test_second_click_restarts_the_timer(run):
    run.green_flag().seconds(1)
    run.click("Egg").seconds(3)
    run.click("Egg").seconds(3)
    assert _egg(run) == "cooking", f"the Egg shows {_egg(run)!r} 3 s after the second click"
    run.seconds(2.3)
    assert _egg(run) == "done", f"the Egg shows {_egg(run)!r} 5.3 s after the second click"
