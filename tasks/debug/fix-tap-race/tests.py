"""Tests of fix-tap-race: A moves only Red and L moves only Blue, 10 steps a tap, each counting its
own taps; the first past x 190 wins, says so, and then nobody moves; the green flag resets all."""

from scratch_gym.tasks import Said, Var


def _taps(run, key, n):
    for _ in range(n):
        run.press(key, 1).frames(1)


def test_a_moves_only_red(run):
    run.green_flag().frames(2)
    _taps(run, "a", 3)
    red, blue = run.sprite("Red"), run.sprite("Blue")
    assert (round(red.x), round(blue.x)) == (-170, -200), f"Red at x {red.x}, Blue at x {blue.x}"
    run.expect(Var("red taps") == 3, "red taps after three A taps")
    run.expect(Var("blue taps") == 0, "blue taps after three A taps")


def test_l_moves_only_blue(run):
    run.green_flag().frames(2)
    _taps(run, "l", 3)
    red, blue = run.sprite("Red"), run.sprite("Blue")
    assert (round(red.x), round(blue.x)) == (-200, -170), f"Red at x {red.x}, Blue at x {blue.x}"
    run.expect(Var("blue taps") == 3, "blue taps after three L taps")
    run.expect(Var("red taps") == 0, "red taps after three L taps")


def test_blue_wins(run):
    run.green_flag().frames(2)
    _taps(run, "a", 5)
    _taps(run, "l", 40)
    run.expect(Said("Blue").contains("Blue wins!"), "Blue crossed the line first")
    run.expect(Var("winner") == "Blue", "the winner")
    run.expect(~Said("Red").contains("Red wins!"), "Red did not win")
    _taps(run, "l", 2)
    _taps(run, "a", 2)
    red, blue = run.sprite("Red"), run.sprite("Blue")
    assert (round(red.x), round(blue.x)) == (-150, 200), f"after the win Red {red.x}, Blue {blue.x}"


def test_red_wins(run):
    run.green_flag().frames(2)
    _taps(run, "a", 40)
    run.expect(Said("Red").contains("Red wins!"), "Red crossed the line first")
    run.expect(Var("winner") == "Red", "the winner")
    _taps(run, "l", 2)
    assert round(run.sprite("Blue").x) == -200, "Blue moved after the race was over"


def test_green_flag_resets(run):
    run.green_flag().frames(2)
    _taps(run, "l", 40)
    run.green_flag().frames(2)
    blue = run.sprite("Blue")
    assert round(blue.x) == -200, f"Blue starts the new race at x {blue.x}"
    run.expect(Var("blue taps") == 0, "blue taps in a new race")
    run.expect(Var("winner") == "", "no winner in a new race")
