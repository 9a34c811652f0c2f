"""Tests of pen-wall: the Car drives to the edge without a wall, stops at the drawn wall (its
colour and thickness matter), the Pencil parks, and e erases the wall."""

from scratch_gym.tasks import Said


def _drive(run, message, frames=260):
    run.green_flag()
    run.wait_until(Said("Car").contains(message), frames=frames, message=f"never said {message}")
    return run.sprite("Car")


def test_no_wall_car_makes_it(run):
    car = _drive(run, "Made it!")
    assert car.x > 180 and round(car.y) == 0, f"the Car ended at ({car.x}, {car.y})"


def test_pencil_parks_after_drawing(run):
    run.press("w").frames(3)
    p = run.sprite("Pencil")
    assert (round(p.x), round(p.y)) == (-100, -170), f"the Pencil is at ({p.x}, {p.y})"


def test_car_stops_at_the_wall(run):
    run.press("w").frames(3)
    car = _drive(run, "Stop!")
    assert -21 <= car.x <= -16, f"the Car stopped at x {car.x}, not where it meets the wall"
    assert "Made it!" not in run.said("Car"), "the Car also said Made it!"


def test_e_erases_the_wall(run):
    run.press("w").frames(3)
    run.press("e").frames(3)
    car = _drive(run, "Made it!")
    assert car.x > 180, f"the Car ended at x {car.x}"
