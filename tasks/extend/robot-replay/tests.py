"""Tests of robot-replay: the arrows still move the Robot 40 steps; moves are recorded in xs/ys;
clicking the stage replays them from the start, half a second apart, then says Done!."""

from scratch_gym.tasks import Said


def _pos(run):
    s = run.sprite("Robot")
    return (round(s.x), round(s.y))


def _walk(run, *keys):
    run.green_flag().frames(2)
    for key in keys:
        run.press(key).frames(2)


def test_arrows_move_40_steps(run):
    _walk(run, "right arrow", "right arrow", "up arrow")
    assert _pos(run) == (80, 40), f"after right, right, up the Robot is at {_pos(run)}"
    run.press("left arrow").frames(2).press("down arrow").frames(2)
    assert _pos(run) == (40, 0), f"after left, down the Robot is at {_pos(run)}, not (40, 0)"
    assert round(run.sprite("Robot").direction) == 180, "it should point down after down arrow"


def test_moves_are_recorded(run):
    run.set_list("xs", [999]).set_list("ys", [999])
    _walk(run, "right arrow", "up arrow", "up arrow", "left arrow")
    xs = [str(v) for v in run.list("xs")]
    ys = [str(v) for v in run.list("ys")]
    assert xs == ["40", "40", "40", "0"], f"xs is {xs}"
    assert ys == ["0", "40", "80", "80"], f"ys is {ys}"


def test_replay_visits_the_points_in_order(run):
    _walk(run, "right arrow", "up arrow", "up arrow")
    run.click("Stage").frames(5)
    assert _pos(run) == (0, 0), f"replay should start back at (0, 0), Robot is at {_pos(run)}"
    for n, point in enumerate([(40, 0), (40, 40), (40, 80)], start=1):
        run.wait_until(Said("Robot").contains(str(n)), frames=40, message=f"never said {n}")
        assert _pos(run) == point, f"at step {n} the Robot is at {_pos(run)}, not {point}"
    run.wait_until(Said("Robot").contains("Done!"), frames=40, message="never said Done!")


def test_replay_is_paced(run):
    _walk(run, "right arrow", "right arrow")
    run.click("Stage")
    run.wait_until(Said("Robot").contains("1"), frames=40, message="never said 1")
    first = run.frame
    run.frames(8)
    assert _pos(run) == (40, 0), f"the Robot left step 1 too soon: {_pos(run)}"
    run.wait_until(Said("Robot").contains("2"), frames=40, message="never said 2")
    gap = (run.frame - first) / 30
    assert 0.4 <= gap <= 0.6, f"steps were {gap:.2f} s apart, not about 0.5 s"
    run.wait_until(Said("Robot").contains("Done!"), frames=40, message="never said Done!")
    assert _pos(run) == (80, 0), f"the replay ended at {_pos(run)}"
