"""Tests of piggy-goal: the flag resets savings and greets, coins still count; the Piggy reports
progress "N of GOAL" (goal 5 by default, or asked for on a click) and is happy at the goal."""


def _start(run):
    run.set_variable("savings", 9).set_variable("goal", 99)
    run.green_flag().frames(3)


def _coins(run, n):
    for _ in range(n):
        run.click("Coin").frames(2)


def _piggy(run):
    p = run.sprite("Piggy")
    return p.bubble, p.costume


def test_flag_resets_and_greets(run):
    _start(run)
    assert str(run.var("savings")) == "0", f"savings is {run.var('savings')!r} after the flag"
    assert _piggy(run) == ("Feed me coins!", "normal"), f"the Piggy shows {_piggy(run)}"


def test_coins_count(run):
    _start(run)
    _coins(run, 3)
    assert str(run.var("savings")) == "3", f"savings is {run.var('savings')!r} after 3 coins"


def test_progress_towards_default_goal(run):
    _start(run)
    _coins(run, 2)
    assert _piggy(run) == ("2 of 5", "normal"), f"after 2 coins the Piggy shows {_piggy(run)}"


def test_asks_for_a_goal_and_reaches_it(run):
    _start(run)
    run.answer(3).click("Piggy").frames(5)
    assert _piggy(run)[0] == "Goal: 3", f"after answering 3 the Piggy shows {_piggy(run)}"
    _coins(run, 2)
    assert _piggy(run) == ("2 of 3", "normal"), f"after 2 coins: {_piggy(run)}"
    _coins(run, 1)
    assert _piggy(run) == ("Goal reached!", "happy"), f"after 3 coins: {_piggy(run)}"


def test_more_than_the_goal_is_still_reached(run):
    _start(run)
    run.answer(2).click("Piggy").frames(5)
    _coins(run, 3)
    assert _piggy(run) == ("Goal reached!", "happy"), f"after 3 coins for goal 2: {_piggy(run)}"
