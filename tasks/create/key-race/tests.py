"""Tests of key-race: the start line, moving by key presses, the finish, and the end of the race."""


def _press(run, key, times):
    for _ in range(times):
        run.press(key).frames(1)
    run.frames(2)


def _xs(run):
    return round(run.sprite("Red").x), round(run.sprite("Blue").x)


def test_green_flag_lines_up(run):
    run.green_flag().frames(2)
    assert _xs(run) == (-200, -200), f"the cars are at x {_xs(run)}"
    assert round(run.sprite("Red").y) == 60, "Red should keep its y"
    assert run.var("winner") == "", f"winner is {run.var('winner')!r}"
    assert run.backdrop == "track", f"the backdrop is {run.backdrop!r}"


def test_keys_move_each_car_and_spin_wheels(run):
    run.green_flag().frames(2)
    _press(run, "a", 3)
    _press(run, "l", 1)
    assert _xs(run) == (-170, -190), f"after a x3 and l x1 the cars are at {_xs(run)}"
    costumes = run.sprite("Red").costume, run.sprite("Blue").costume
    assert costumes == ("wheels2", "wheels2"), f"the costumes are {costumes}"


def test_red_wins(run):
    run.green_flag().frames(2)
    _press(run, "a", 34)
    assert run.var("winner") == "" and run.backdrop == "track", "Red won at x 140"
    _press(run, "a", 1)
    assert run.var("winner") == "Red", f"winner is {run.var('winner')!r} at x {_xs(run)[0]}"
    assert run.backdrop == "podium", f"the backdrop is {run.backdrop!r}"
    assert run.sprite("Judge").bubble == "Red wins!", f"Judge: {run.sprite('Judge').bubble!r}"


def test_blue_wins_and_the_race_is_over(run):
    run.green_flag().frames(2)
    _press(run, "a", 20)
    _press(run, "l", 35)
    assert run.sprite("Judge").bubble == "Blue wins!", f"Judge: {run.sprite('Judge').bubble!r}"
    _press(run, "a", 20)
    _press(run, "l", 2)
    assert _xs(run) == (0, 150), f"the cars moved after the race: {_xs(run)}"
    assert run.var("winner") == "Blue", f"winner is {run.var('winner')!r}"
