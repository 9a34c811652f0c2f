"""Tests of fix-broadcast: clicks reach the Scoreboard through the broadcast and count once."""

from scratch_gym.tasks import Var


def test_click_adds_one(run):
    run.green_flag().frames(2)
    run.click("Button").frames(3)
    run.expect(Var("score") == 1, "one click on the Button")


def test_scoreboard_says_each_new_score(run):
    run.green_flag().frames(2)
    for _ in range(3):
        run.click("Button").frames(3)
    said = run.said("Scoreboard")
    assert said == ["1", "2", "3"], f"the Scoreboard said {said} for three clicks"


def test_clicking_the_scoreboard_does_not_score(run):
    run.green_flag().frames(2)
    run.click("Scoreboard").frames(3)
    run.expect(Var("score") == 0, "a click on the Scoreboard")


def test_green_flag_resets(run):
    run.green_flag().frames(2)
    run.click("Button").frames(3)
    run.green_flag().frames(2)
    run.expect(Var("score") == 0, "after the green flag")
