"""Tests of fix-shark-chase: the Fish swims in place, the Shark waits a second, swims up to the
Fish, then the Fish disappears and the Shark says Chomp!"""

from scratch_gym.tasks import Said, Sprite


def test_fish_animates_before_the_chase(run):
    run.green_flag().frames(3)
    first = run.sprite("Fish").costume
    run.frames(7)
    fish = run.sprite("Fish")
    assert fish.visible and fish.costume != first, f"Fish costume {first} -> {fish.costume}"


def test_shark_waits_a_second(run):
    run.green_flag().frames(20)
    shark = run.sprite("Shark")
    assert (round(shark.x), round(shark.y)) == (-180, 100), f"Shark at ({shark.x}, {shark.y})"
    run.expect(~Said("Shark").contains("Chomp!"), "no Chomp! before the chase")


def test_shark_swims_to_the_fish(run):
    run.green_flag().frames(45)
    x1 = run.sprite("Shark").x
    run.frames(10)
    x2 = run.sprite("Shark").x
    assert x2 > x1 > -180, f"the Shark is not swimming towards the Fish: x {x1} -> {x2}"
    assert run.sprite("Fish").visible, "the Fish vanished while the Shark was still far away"


def test_chomp_when_close(run):
    run.green_flag()
    run.wait_until(Said("Shark").contains("Chomp!"), frames=150, message="the Shark never chomped")
    assert 3 <= run.time <= 4.5, (
        f"Chomp! after {run.time:.1f} s: the Shark did not swim all the way"
    )
    shark, fish = run.sprite("Shark"), run.sprite("Fish")
    d = ((shark.x - fish.x) ** 2 + (shark.y - fish.y) ** 2) ** 0.5
    assert d < 40, f"the Shark chomped from {d:.0f} steps away"
    run.expect(Sprite("Fish").visible.falsy(), "the Fish should disappear")
