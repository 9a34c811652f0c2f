"""Tests of fix-maze-restart: each game starts at the maze entrance with 0 bumps, the arrow keys
move the Player, a wall sends it back to the entrance and counts a bump, the Goal wins."""

from scratch_gym.tasks import Said, Var


def _hold(run, key, frames):
    run.key_down(key).frames(frames).key_up(key).frames(1)


def test_starts_at_the_entrance(run):
    run.green_flag().frames(2)
    p = run.sprite("Player")
    assert (round(p.x), round(p.y)) == (-200, -140), f"the game starts at ({p.x}, {p.y})"
    run.expect(Var("bumps") == 0, "bumps at the start")


def test_arrow_keys_move(run):
    run.green_flag().frames(2)
    _hold(run, "up arrow", 10)
    _hold(run, "right arrow", 5)
    p = run.sprite("Player")
    assert (round(p.x), round(p.y)) == (-180, -100), f"after up 10 frames, right 5: ({p.x}, {p.y})"


def test_wall_sends_back(run):
    run.green_flag().frames(2)
    _hold(run, "right arrow", 20)
    run.expect(Var("bumps") == 1, "running into the wall once")
    p = run.sprite("Player")
    assert p.x < -130, f"the Player went through the wall to x {p.x}"


def test_reaches_the_goal(run):
    run.green_flag().frames(2)
    for key, frames in [
        ("up arrow", 60),
        ("right arrow", 50),
        ("down arrow", 55),
        ("right arrow", 50),
        ("up arrow", 70),
    ]:
        _hold(run, key, frames)
    run.expect(Said("Player").contains("I made it!"), "the Player never reached the Goal")
    run.expect(Var("bumps") == 0, "no bumps on the right path")


def test_new_game_starts_over(run):
    run.green_flag().frames(2)
    _hold(run, "up arrow", 30)
    _hold(run, "right arrow", 20)
    run.green_flag().frames(2)
    p = run.sprite("Player")
    assert (round(p.x), round(p.y)) == (-200, -140), f"the new game starts at ({p.x}, {p.y})"
