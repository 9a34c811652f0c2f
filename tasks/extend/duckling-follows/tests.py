"""Tests of duckling-follows: the Duck still walks and sleeps; the Duckling peeps, then keeps 40
steps left of the Duck, faces its way, and thinks Zzz only while the Duck is asleep."""

from scratch_gym.tasks import Sprite


def _start(run):
    run.green_flag().frames(40)


def test_duck_walks_with_arrows(run):
    _start(run)
    for key in ["right arrow", "right arrow", "right arrow", "up arrow", "left arrow"]:
        run.press(key).frames(1)
    duck = run.sprite("Duck")
    assert (round(duck.x), round(duck.y)) == (20, 10), f"the Duck is at ({duck.x}, {duck.y})"
    assert round(duck.direction) == -90, "the Duck should face left after the left arrow"


def test_duckling_peeps_first(run):
    run.green_flag().frames(5)
    chick = run.sprite("Duckling")
    assert chick.bubble == "Peep!", f"the Duckling shows {chick.bubble!r}, not 'Peep!'"
    assert (round(chick.x), round(chick.y)) == (-60, 0), "it should start at (-60, 0)"


def test_duckling_keeps_40_steps_behind(run):
    _start(run)
    for key in ["right arrow"] * 5 + ["up arrow"] * 3:
        run.press(key).frames(1)
    run.frames(3)
    chick = run.sprite("Duckling")
    assert (round(chick.x), round(chick.y)) == (10, 30), (
        f"Duck at (50, 30); the Duckling is at ({chick.x}, {chick.y}), not (10, 30)"
    )
    run.press("down arrow").frames(3)
    assert round(run.sprite("Duckling").y) == 20, "the Duckling did not follow the Duck down"


def test_duckling_faces_the_duck_way(run):
    _start(run)
    run.press("left arrow").frames(3)
    assert round(run.sprite("Duckling").direction) == -90, "the Duckling does not face left"
    run.press("right arrow").frames(3)
    assert round(run.sprite("Duckling").direction) == 90, "the Duckling does not face right"


def test_duckling_sleeps_with_the_duck(run):
    _start(run)
    assert run.sprite("Duckling").bubble is None, "the Duckling should be quiet after Peep!"
    run.press("s")
    run.wait_until(Sprite("Duckling").bubble == "Zzz", frames=5, message="no Zzz when Duck sleeps")
    assert run.sprite("Duckling").bubble_type == "think", "Zzz should be a thought bubble"
    assert run.sprite("Duck").costume == "asleep", "s should still put the Duck to sleep"
    run.press("s").frames(3)
    assert run.sprite("Duckling").bubble is None, "the Zzz should go away when the Duck wakes"
