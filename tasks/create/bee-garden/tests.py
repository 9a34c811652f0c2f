"""Tests of bee-garden: the set-up, stamping flowers in a row, the Bee counting each flower once,
and the green flag erasing the garden."""

from scratch_gym.tasks import Said


def _plant(run, n):
    run.green_flag().frames(2)
    for _ in range(n):
        run.press("space").frames(1)


def _trip(run):
    run.press("b")
    run.wait_until(
        Said("Bee").includes_text("Flowers:"), frames=150, message="the trip never ended"
    )
    return run.sprite("Bee").bubble


def test_green_flag_hides_the_flower_at_the_start(run):
    run.green_flag().frames(2)
    f = run.sprite("Flower")
    assert not f.visible and (round(f.x), round(f.y)) == (-150, 0), f"({f.x}, {f.y}) {f.visible}"


def test_space_moves_the_flower_on(run):
    _plant(run, 3)
    assert round(run.sprite("Flower").x) == 150, f"Flower x is {run.sprite('Flower').x}"


def test_bee_counts_three_flowers(run):
    _plant(run, 3)
    assert _trip(run) == "Flowers: 3", f"the Bee says {run.sprite('Bee').bubble!r}"
    bee = run.sprite("Bee")
    assert bee.x > 220 and round(bee.y) == 0, f"the Bee ended at ({bee.x}, {bee.y})"


def test_bee_counts_four_from_zero(run):
    _plant(run, 4)
    run.set_variable("flowers", 9)
    assert _trip(run) == "Flowers: 4", f"the Bee says {run.sprite('Bee').bubble!r}"
    assert str(run.var("flowers")) == "4", f"flowers is {run.var('flowers')!r}"


def test_green_flag_erases_the_garden(run):
    _plant(run, 2)
    run.green_flag().frames(2)
    assert _trip(run) == "Flowers: 0", f"after the flag the Bee says {run.sprite('Bee').bubble!r}"
