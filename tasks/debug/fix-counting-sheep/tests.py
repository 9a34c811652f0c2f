"""Tests of fix-counting-sheep: each sheep jumps over the fence in one second, the Girl counts
every sheep, exactly ten sheep jump, and then the Sheep hides and the Girl falls asleep."""

from scratch_gym.tasks import Said, Sprite
from scratch_gym.tasks.loader import budget


def test_a_sheep_jumps_over_the_fence(run):
    run.green_flag().seconds(0.5)
    s = run.sprite("Sheep")
    assert abs(s.x) <= 15 and s.y >= -10, f"mid-jump the Sheep is at ({s.x}, {s.y})"
    run.seconds(0.5)
    s = run.sprite("Sheep")
    assert s.x >= 185 and s.y <= -70, f"after the jump the Sheep is at ({s.x}, {s.y})"


def test_girl_counts_each_sheep(run):
    run.green_flag().seconds(3.2)
    said = [s for s in run.said("Girl") if s.endswith("sheep...")]
    assert said == ["1 sheep...", "2 sheep...", "3 sheep..."], f"the Girl said {said}"
    run.expect(Sprite("Girl").costume == "awake", "the Girl is still awake while counting")


@budget(frames=450, wall_s=30)
def test_exactly_ten_sheep(run):
    run.green_flag()
    run.wait_until(Said("Girl").contains("Zzz"), frames=400, message="the Girl never fell asleep")
    said = [s for s in run.said("Girl") if s.endswith("sheep...")]
    assert said == [f"{n} sheep..." for n in range(1, 11)], f"the Girl counted {said}"
    assert run.var("sheep") in (10, "10"), f"sheep is {run.var('sheep')!r}"


@budget(frames=450, wall_s=30)
def test_falls_asleep_after_the_tenth(run):
    run.green_flag().seconds(9.5)
    run.expect(Sprite("Girl").costume == "awake", "still awake during the tenth sheep")
    run.wait_until(
        Sprite("Girl").costume == "asleep", frames=60, message="not asleep after ten sheep"
    )
    run.expect(Sprite("Sheep").visible.falsy(), "the Sheep is gone")
    run.expect(Sprite("Girl").bubble == "Zzz", "the Girl thinks Zzz")
