"""Tests of fish-bubbles: the set-up, steering, one clone per space press, rising and deletion."""

from scratch_gym.tasks import Clones


def test_green_flag_sets_up(run):
    run.green_flag().frames(2)
    fish, bubble = run.sprite("Fish"), run.sprite("Bubble")
    assert (round(fish.x), round(fish.y)) == (0, -100), f"the Fish is at ({fish.x}, {fish.y})"
    assert not bubble.visible, "the original Bubble should be hidden"


def test_arrows_steer_the_fish(run):
    run.green_flag().frames(2)
    run.press("right arrow").press("right arrow").press("right arrow").press("left arrow")
    run.frames(2)
    assert round(run.sprite("Fish").x) == 40, f"Fish x is {run.sprite('Fish').x}, not 40"


def test_space_blows_a_bubble_at_the_fish(run):
    run.green_flag().frames(2)
    run.press("right arrow").press("right arrow").frames(1)
    run.press("space", frames=1).frames(1)
    clones = run.clones("Bubble")
    assert len(clones) == 1, f"{len(clones)} bubbles after one space press"
    c = clones[0]
    assert round(c.x) == 40 and -100 <= c.y <= -80, f"the bubble is at ({c.x}, {c.y})"
    assert c.visible and round(c.ghost) == 50, f"visible {c.visible}, ghost {c.ghost}"
    assert not run.sprite("Bubble").visible, "the original Bubble should stay hidden"


def test_bubble_rises_five_per_frame(run):
    run.green_flag().frames(2)
    run.press("space", frames=1)
    y0 = run.clones("Bubble")[0].y
    run.frames(20)
    y1 = run.clones("Bubble")[0].y
    assert round(y1 - y0) == 100, f"the bubble rose {y1 - y0} in 20 frames, not 100"


def test_bubbles_pile_up_then_vanish_at_the_top(run):
    run.green_flag().frames(2)
    for _ in range(3):
        run.press("space", frames=1).frames(5)
    assert len(run.clones("Bubble")) == 3, f"{len(run.clones('Bubble'))} bubbles for 3 presses"
    run.wait_until(Clones("Bubble") == 0, frames=90, message="the bubbles were never deleted")
    assert round(run.sprite("Bubble").y) == 0, "the original Bubble moved"
