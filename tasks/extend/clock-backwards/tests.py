"""Tests of clock-backwards: the hand ticks 6 degrees a second as before; b runs it backwards, f
forwards again, 0 puts it back to 12 o'clock (and the clock keeps running)."""


def _direction(run):
    return round(run.sprite("Hand").direction)


def test_ticks_forward_every_second(run):
    run.set_variable("forward", 0)
    run.green_flag().seconds(1.5)
    assert _direction(run) == 6, f"after 1.5 s the hand points at {_direction(run)}, not 6"
    run.seconds(2)
    assert _direction(run) == 18, f"after 3.5 s the hand points at {_direction(run)}, not 18"


def test_b_runs_backwards(run):
    run.green_flag().seconds(1.5)
    run.press("b").seconds(2)
    assert _direction(run) == -6, f"after b and 2 s the hand points at {_direction(run)}, not -6"
    run.seconds(1)
    assert _direction(run) == -12, f"it points at {_direction(run)}, not -12, a second later"


def test_f_runs_forward_again(run):
    run.green_flag().seconds(1.5)
    run.press("b").seconds(2)
    run.press("f").seconds(2)
    assert _direction(run) == 6, f"after b then f the hand points at {_direction(run)}, not 6"


def test_0_resets_to_twelve(run):
    run.green_flag().seconds(3.5)
    run.press("0").frames(3)
    assert _direction(run) == 0, f"after 0 the hand points at {_direction(run)}"
    assert run.sprite("Hand").bubble == "Midnight!", "the hand should say Midnight!"
    run.seconds(3)
    assert _direction(run) in (12, 18), f"the clock stopped after 0: {_direction(run)}"
