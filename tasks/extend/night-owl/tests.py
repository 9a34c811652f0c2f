"""Tests of night-owl: the flag and n still switch day/night; the Owl appears only at night
(saying Hoo hoo!), the Sun answers by the time of day, clicking the stage brings back the day."""


def _flag(run, nights=0):
    run.green_flag().frames(3)
    for _ in range(nights):
        run.press("n").frames(3)


def test_n_switches_day_and_night(run):
    _flag(run)
    assert run.backdrop == "day", f"after the flag the backdrop is {run.backdrop}"
    run.press("n").frames(2)
    assert run.backdrop == "night", f"after n the backdrop is {run.backdrop}"
    run.press("n").frames(2)
    assert run.backdrop == "day", f"after n, n the backdrop is {run.backdrop}"


def test_owl_hidden_by_day(run):
    _flag(run)
    assert not run.sprite("Owl").visible, "the Owl should be hidden during the day"


def test_owl_comes_out_at_night(run):
    _flag(run, nights=1)
    owl = run.sprite("Owl")
    assert owl.visible, "the Owl should show at night"
    assert owl.bubble == "Hoo hoo!", f"the Owl shows {owl.bubble!r}"


def test_owl_goes_at_daybreak(run):
    _flag(run, nights=2)
    assert run.backdrop == "day", f"the backdrop is {run.backdrop}"
    assert not run.sprite("Owl").visible, "the Owl should hide again when it is day"


def test_sun_answers_by_time_of_day(run):
    _flag(run)
    run.click("Sun").frames(2)
    sun = run.sprite("Sun")
    assert (sun.bubble, sun.bubble_type) == ("Good morning!", "say"), f"by day: {sun.bubble!r}"
    run.press("n").frames(2).click("Sun").frames(2)
    sun = run.sprite("Sun")
    assert (sun.bubble, sun.bubble_type) == ("Zzz...", "think"), f"at night: {sun.bubble!r}"


def test_stage_click_brings_the_day(run):
    _flag(run, nights=1)
    run.click("Stage").frames(3)
    assert run.backdrop == "day", f"after a stage click the backdrop is {run.backdrop}"
    assert not run.sprite("Owl").visible, "the Owl should hide when the day comes back"
