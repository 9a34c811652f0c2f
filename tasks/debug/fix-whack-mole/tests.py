"""Tests of fix-whack-mole: moles pop up at the three holes for 0.8 s, a click on a mole counts
once and shows the bonk costume, every new mole can be hit, and the game ends with the hits."""

from scratch_gym.tasks import Said, Sprite, Var


def _next_mole(run):
    run.wait_until(
        Sprite("Mole").visible.truthy() & (Sprite("Mole").costume == "up"),
        frames=40,
        message="no mole popped up",
    )


def test_mole_pops_up_at_a_hole(run):
    run.green_flag().frames(2)
    mole = run.sprite("Mole")
    assert mole.visible and mole.costume == "up", f"visible {mole.visible}, costume {mole.costume}"
    assert round(mole.x) in (-120, 0, 120) and round(mole.y) == -60, f"at ({mole.x}, {mole.y})"
    run.frames(26)
    assert not run.sprite("Mole").visible, "the mole should hide after 0.8 s"


def test_a_hit_counts_once(run):
    run.green_flag().frames(3)
    run.click("Mole").frames(2)
    run.expect(Var("hits") == 1, "one click on the mole")
    run.expect(Sprite("Mole").costume == "bonk", "a hit mole shows the bonk costume")
    run.click("Mole").frames(2).click("Mole").frames(2)
    run.expect(Var("hits") == 1, "clicking the same mole again must not count")


def test_every_new_mole_can_be_hit(run):
    run.green_flag()
    for i in range(3):
        _next_mole(run)
        run.click("Mole").frames(2)
        run.expect(Var("hits") == i + 1, f"hit on mole {i + 1}")
        run.click("Mole").frames(2)
        run.expect(Var("hits") == i + 1, f"second click on mole {i + 1}")


def test_game_ends_with_the_hits(run):
    run.green_flag()
    for _ in range(2):
        _next_mole(run)
        run.click("Mole").frames(2)
    run.wait_until(
        Said("Mole").contains("Hits: 2"), frames=400, message="the game never said Hits: 2"
    )
    assert 11.8 <= run.time <= 12.3, f"the game ended after {run.time:.1f} s, not 10 moles"
