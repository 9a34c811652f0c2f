"""Tests of puppy-follows-mouse: the start, heading for the pointer, resting near it, the Bone."""

from scratch_gym.tasks import Sprite


def _pos(run):
    p = run.sprite("Puppy")
    return round(p.x), round(p.y)


def test_green_flag_sets_up(run):
    run.mouse_move(0, 0)
    run.green_flag().frames(1)
    p = run.sprite("Puppy")
    assert _pos(run) == (0, 0) and round(p.size) == 60, f"at {_pos(run)}, size {p.size}"


def test_runs_right_towards_the_pointer(run):
    run.mouse_move(200, 0)
    run.green_flag().frames(11)
    p = run.sprite("Puppy")
    assert round(p.direction) == 90, f"direction is {p.direction}"
    assert 40 <= p.x <= 60 and round(p.y) == 0, f"after 10 frames the Puppy is at {_pos(run)}"


def test_turns_to_follow_the_pointer(run):
    run.mouse_move(200, 0)
    run.green_flag().frames(5)
    run.mouse_move(0, -170).frames(20)
    p = run.sprite("Puppy")
    assert p.y < -60, f"the Puppy did not follow the pointer down: at {_pos(run)}"
    assert 130 <= abs(p.direction) <= 180, f"direction is {p.direction}"


def test_rests_close_to_the_pointer(run):
    run.mouse_move(30, 40)
    run.green_flag().seconds(1)
    first = _pos(run)
    run.frames(10)
    assert _pos(run) == first, f"the Puppy keeps moving near the pointer: {first} -> {_pos(run)}"
    assert abs(first[0] - 30) <= 10 and abs(first[1] - 40) <= 10, f"it rests at {first}"


def test_says_yum_only_at_the_bone(run):
    run.mouse_move(0, 0)
    run.green_flag().frames(2)
    run.expect(Sprite("Puppy").bubble == "", "no Yum! away from the Bone")
    run.mouse_move(150, -100)
    run.wait_until(Sprite("Puppy").bubble == "Yum!", frames=90, message="no Yum! at the Bone")
    run.mouse_move(-150, 100)
    run.wait_until(Sprite("Puppy").bubble == "", frames=60, message="Yum! stays after leaving")
