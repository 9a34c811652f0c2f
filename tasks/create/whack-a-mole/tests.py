"""Tests of whack-a-mole: the start, 5 rounds of 1 s up and 0.5 s down in the holes, whacking
(once per round), and the game-over message with the score."""

HOLES = {-150, -50, 50, 150}


def _at(run, seconds):
    run.frames(max(0, round(seconds * 30) - run.frame))
    return run.sprite("Mole")


def test_green_flag_starts_a_round(run):
    run.set_variable("score", 4)
    run.green_flag()
    mole = _at(run, 0.3)
    assert str(run.var("score")) == "0", f"score is {run.var('score')!r}"
    assert mole.visible and mole.costume == "up", f"visible {mole.visible}, {mole.costume!r}"
    assert round(mole.x) in HOLES and round(mole.y) == -50, f"the Mole is at ({mole.x}, {mole.y})"
    assert round(mole.size) == 100, f"size is {mole.size}"


def test_rounds_of_up_and_down_in_random_holes(run):
    run.green_flag()
    xs = []
    for k in range(5):
        mole = _at(run, 1.5 * k + 0.5)
        assert mole.visible, f"the Mole is hidden in round {k + 1}"
        xs.append(round(mole.x))
        mole = _at(run, 1.5 * k + 1.25)
        assert not mole.visible, f"the Mole still shows 1.25 s into round {k + 1}"
    assert set(xs) <= HOLES, f"the Mole went to {xs}, not only holes {sorted(HOLES)}"
    assert len(set(xs)) > 1, f"the Mole always used the same hole: {xs}"


def test_whack_scores_once_per_round(run):
    run.green_flag()
    _at(run, 0.5)
    run.click("Mole").frames(2)
    mole = run.sprite("Mole")
    assert str(run.var("score")) == "1", f"score is {run.var('score')!r} after a whack"
    assert mole.costume == "bonked" and round(mole.size) == 70, f"{mole.costume!r}, {mole.size}"
    run.click("Mole").frames(2)
    assert str(run.var("score")) == "1", "a second click in the same round scored again"
    mole = _at(run, 2.0)
    assert mole.costume == "up" and round(mole.size) == 100, "the next round starts fresh"


def test_game_over_with_the_score(run):
    run.green_flag()
    for k in (0, 2, 4):
        _at(run, 1.5 * k + 0.5)
        run.click("Mole").frames(1)
    mole = _at(run, 7.2)
    assert mole.bubble is None, f"game over came too early: {mole.bubble!r}"
    mole = _at(run, 7.9)
    assert mole.bubble == "Game over! Score: 3", f"the Mole says {mole.bubble!r}"
    assert mole.visible and (round(mole.x), round(mole.y)) == (0, 0), f"at ({mole.x}, {mole.y})"
    mole = _at(run, 9.0)
    assert mole.bubble == "Game over! Score: 3", "the game-over message should last 2 seconds"
    mole = _at(run, 10.0)
    assert not mole.visible and mole.bubble is None, "the Mole should hide after the message"
