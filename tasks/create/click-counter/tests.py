"""Tests of click-counter: the global variable, counting clicks, saying the count, the reset."""

from scratch_gym.tasks import Var


def test_green_flag_resets_clicks(run):
    run.set_variable("clicks", 7)
    run.green_flag().frames(2)
    assert run.var("clicks") in (0, "0"), f"clicks is {run.var('clicks')!r} after the green flag"


def test_each_click_counts(run):
    run.green_flag().frames(2)
    for _ in range(3):
        run.click("Sprite1").frames(2)
    run.expect(Var("clicks") == 3, "three clicks")


def test_says_the_new_count(run):
    run.green_flag().frames(2)
    run.click("Sprite1").frames(2)
    run.click("Sprite1").frames(2)
    said = run.said("Sprite1")
    assert said == ["1", "2"], f"Sprite1 said {said} for two clicks"
