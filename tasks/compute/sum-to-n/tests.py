"""Tests of sum-to-n beyond the cases in task.toml: the same run twice (variables are reset)."""

from scratch_gym.tasks import Sprite, idle


def _sums(run, n):
    run.answer(str(n)).green_flag()
    run.wait_until(idle(), frames=150, message=f"for {n} the program did not finish")
    run.seconds(1)
    expected = str(n * (n + 1) // 2)
    run.expect(Sprite("Sprite1").bubble == expected, f"for {n} the answer on screen")


def test_twice_in_a_row(run):
    _sums(run, 4)
    _sums(run, 3)
