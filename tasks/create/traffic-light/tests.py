"""Tests of traffic-light: the light's cycle and timing, and the Car gliding only on green."""


def _at(run, seconds):
    """Run to `seconds` after the green flag (the flag is clicked at time 0)."""
    run.frames(max(0, round(seconds * 30) - run.frame))
    return run.sprite("Light").costume, round(run.sprite("Car").x), round(run.sprite("Car").y)


def test_starts_red_and_car_waits(run):
    run.green_flag()
    light, x, y = _at(run, 1.5)
    assert light == "red", f"the Light is {light!r} at 1.5 s"
    assert (x, y) == (-200, -120), f"the Car is at ({x}, {y}) on red, not (-200, -120)"


def test_green_then_car_glides(run):
    run.green_flag()
    light, x, _ = _at(run, 2.5)
    assert light == "green", f"the Light is {light!r} at 2.5 s"
    assert -195 < x < -105, f"the Car should be gliding at 2.5 s, it is at x {x}"
    light, x, y = _at(run, 3.5)
    assert (x, y) == (-100, -120), f"the Car is at ({x}, {y}) at 3.5 s, not (-100, -120)"


def test_yellow_then_red_again(run):
    run.green_flag()
    light, _, _ = _at(run, 4.5)
    assert light == "yellow", f"the Light is {light!r} at 4.5 s"
    light, x, _ = _at(run, 5.5)
    assert light == "red", f"the Light is {light!r} at 5.5 s"
    assert x == -100, f"the Car moved on yellow or red: x is {x}"


def test_cycle_repeats_and_car_moves_on(run):
    run.green_flag()
    light, x, _ = _at(run, 6.8)
    assert light == "red" and x == -100, f"at 6.8 s: light {light!r}, car x {x}"
    light, _, _ = _at(run, 7.5)
    assert light == "green", f"the Light is {light!r} at 7.5 s (second green)"
    _, x, _ = _at(run, 8.5)
    assert x == 0, f"after the second green the Car is at x {x}, not 0"
    _, x, _ = _at(run, 13.5)
    assert x == 100, f"after the third green the Car is at x {x}, not 100"
