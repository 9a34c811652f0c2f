"""Tests of bus-stops: the Bus still drives to (180, -100) and says End of the line!; at each of
the three stops it waits 1 s, saying the stop's name from the "stops" list."""

from scratch_gym.tasks import Said, Sprite


def _pos(run):
    bus = run.sprite("Bus")
    return (round(bus.x), round(bus.y))


def test_drives_to_the_end(run):
    run.green_flag()
    run.wait_until(Said("Bus").contains("End of the line!"), frames=240, message="never ends")
    assert _pos(run) == (180, -100), f"the Bus ended at {_pos(run)}"


def test_waits_at_the_first_stop(run):
    run.green_flag().frames(24)
    assert _pos(run) == (-180, -100), f"after 0.8 s the Bus left the first stop: {_pos(run)}"
    assert run.sprite("Bus").bubble == "Park", f"the Bus shows {run.sprite('Bus').bubble!r}"


def test_waits_at_the_middle_stop(run):
    run.green_flag()
    run.wait_until(Sprite("Bus").x == 0, frames=120, message="the Bus never reaches x 0")
    run.frames(20)
    assert _pos(run) == (0, -100), f"the Bus did not wait at the middle stop: {_pos(run)}"
    assert run.sprite("Bus").bubble == "School", f"the Bus shows {run.sprite('Bus').bubble!r}"


def test_names_every_stop_in_order(run):
    run.green_flag()
    run.wait_until(Said("Bus").contains("End of the line!"), frames=240, message="never ends")
    said = run.said("Bus")
    assert said == ["Park", "School", "Library", "End of the line!"], f"the Bus said {said}"


def test_names_come_from_the_list(run):
    run.set_list("stops", ["Zoo", "Pool", "Mall"])
    run.green_flag()
    run.wait_until(Said("Bus").contains("End of the line!"), frames=240, message="never ends")
    said = run.said("Bus")
    assert said == ["Zoo", "Pool", "Mall", "End of the line!"], f"the Bus said {said}"
