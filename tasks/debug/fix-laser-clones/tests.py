"""Tests of fix-laser-clones: space fires a laser clone from the Ship, it flies up, a laser that
hits the Alien scores once and vanishes (the Alien jumps elsewhere), a miss vanishes at the top."""

from scratch_gym.tasks import Clones, Var


def _start(run, mouse_x):
    run.mouse_move(mouse_x, 0)
    run.green_flag().frames(2)


def test_laser_flies_up_from_the_ship(run):
    _start(run, -150)
    run.press("space", 1).frames(1)
    lasers = run.clones("Laser")
    assert len(lasers) == 1 and lasers[0].visible, f"{len(lasers)} lasers after space"
    y0 = lasers[0].y
    assert round(lasers[0].x) == -150 and y0 < -100, f"laser at ({lasers[0].x}, {y0})"
    run.frames(5)
    assert run.clones("Laser")[0].y >= y0 + 50, "the laser does not fly up"


def test_a_miss_vanishes_at_the_top(run):
    _start(run, -150)
    run.press("space", 1)
    run.wait_until(Clones("Laser") == 0, frames=40, message="the missed laser never went away")
    run.expect(Var("score") == 0, "a miss does not score")


def test_a_hit_scores_once(run):
    _start(run, 0)
    run.press("space", 1)
    run.wait_until(Var("score") == 1, frames=40, message="the laser never hit the Alien")
    run.frames(1)
    run.expect(Clones("Laser") == 0, "the laser vanishes when it hits")
    run.frames(30)
    run.expect(Var("score") == 1, "one laser scores once")


def test_alien_jumps_and_can_be_hit_again(run):
    _start(run, 0)
    run.press("space", 1)
    run.wait_until(Var("score") == 1, frames=40, message="the first laser never hit")
    run.frames(2)
    alien = run.sprite("Alien")
    run.mouse_move(alien.x, 0).frames(2)
    run.press("space", 1)
    run.wait_until(Var("score") == 2, frames=40, message="could not hit the Alien at its new place")


def test_several_lasers(run):
    _start(run, -150)
    for _ in range(3):
        run.press("space", 1).frames(2)
    assert len(run.clones("Laser")) == 3, f"{len(run.clones('Laser'))} lasers after three shots"
