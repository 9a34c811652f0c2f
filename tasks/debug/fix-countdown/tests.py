"""Tests of fix-countdown: the spoken sequence, its timing, and that the script ends."""

from scratch_gym.tasks import Said, idle


def test_lifts_off(run):
    run.green_flag()
    run.wait_until(Said("Sprite1").contains("Liftoff!"), frames=240, message="never said Liftoff!")


def test_counts_down_from_five(run):
    run.green_flag()
    run.until(Said("Sprite1").contains("Liftoff!"), frames=240)
    said = run.said("Sprite1")
    assert said[:6] == ["5", "4", "3", "2", "1", "Liftoff!"], f"said {said[:8]}"


def test_each_number_lasts_half_a_second(run):
    run.green_flag()
    run.wait_until(Said("Sprite1").contains("Liftoff!"), frames=240, message="never said Liftoff!")
    assert 2.4 <= run.time <= 2.7, f"Liftoff! came after {run.time:.2f} s, not about 2.5 s"


def test_script_finishes(run):
    run.green_flag()
    run.wait_until(idle(), frames=240, message="the countdown script never finished")
    assert run.var("count") in (0, "0"), f"count ended at {run.var('count')!r}"
