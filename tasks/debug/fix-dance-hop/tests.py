"""Tests of fix-dance-hop: three hops of 40 steps (up for 0.2 s, down for 0.2 s) with a new pose
after each, then two full spins, then Ta-da! at about 2 seconds."""

from scratch_gym.tasks import Said, Sprite


def test_first_hop_goes_up_40_and_back(run):
    run.green_flag()
    run.wait_until(Sprite("Dancer").y == -10, frames=3, message="the Dancer did not hop up 40")
    up = run.frame
    run.wait_until(Sprite("Dancer").y == -50, frames=12, message="the Dancer did not come down")
    assert 5 <= run.frame - up <= 7, f"stayed up {run.frame - up} frames, not 0.2 s"


def test_three_hops_with_new_poses(run):
    run.green_flag()
    for i in range(3):
        run.wait_until(Sprite("Dancer").y == -10, frames=15, message=f"hop {i + 1} never went up")
        run.wait_until(Sprite("Dancer").y == -50, frames=15, message=f"hop {i + 1} never came down")
    run.frames(7)
    dancer = run.sprite("Dancer")
    assert dancer.costume == "pose4", f"after three hops the pose is {dancer.costume}"
    assert not run.until(Sprite("Dancer").y > -50, frames=20), "a fourth hop"


def test_spins_twice_after_hopping(run):
    run.green_flag().seconds(1.2)
    assert run.sprite("Dancer").direction == 90, "the spin started during the hops"
    for i, d in enumerate([180, -90, 0, 90, 180, -90, 0, 90]):
        run.wait_until(
            Sprite("Dancer").direction == d, frames=5, message=f"turn {i + 1} to {d} missing"
        )
    assert not run.until(Sprite("Dancer").direction != 90, frames=10), "spun more than twice"


def test_ta_da_at_the_end(run):
    run.green_flag()
    run.wait_until(Said("Dancer").contains("Ta-da!"), frames=90, message="never said Ta-da!")
    assert 1.9 <= run.time <= 2.2, f"Ta-da! after {run.time:.2f} s, not about 2 s"
    d = run.sprite("Dancer")
    assert (round(d.y), d.direction) == (-50, 90), f"the dance ended at y {d.y}, dir {d.direction}"
