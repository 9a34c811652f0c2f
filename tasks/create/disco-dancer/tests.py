"""Tests of disco-dancer: the start pose, each dance step's costume, colour and size, the end,
and the ghost and clear keys."""


def _state(run):
    d = run.sprite("Dancer")
    return d.costume, round(d.effects.get("color", 0)), round(d.size)


def test_starts_in_pose1_at_full_size(run):
    run.green_flag().frames(2)
    assert _state(run) == ("pose1", 0, 100), f"costume, color, size: {_state(run)}"


def test_first_step_after_a_quarter_second(run):
    run.green_flag().frames(5)
    assert _state(run)[0] == "pose1", "the Dancer moved before a quarter of a second"
    run.frames(5)
    assert _state(run) == ("pose2", 25, 105), f"after 0.33 s: {_state(run)}"
    run.frames(10)
    assert _state(run) == ("pose1", 50, 110), f"after 0.67 s: {_state(run)}"


def test_ends_after_eight_steps_with_ta_da(run):
    run.green_flag().seconds(1.5)
    assert run.said("Dancer") == [], "Ta-da! came before the dance ended"
    run.seconds(1)
    assert _state(run) == ("pose1", 200, 140), f"after the dance: {_state(run)}"
    assert run.sprite("Dancer").bubble == "Ta-da!", f"bubble {run.sprite('Dancer').bubble!r}"


def test_space_sets_ghost_to_fifty(run):
    run.press("space").press("space").frames(2)
    ghost = run.sprite("Dancer").ghost
    assert round(ghost) == 50, f"ghost is {ghost} after two presses of space"


def test_c_clears_all_effects(run):
    run.green_flag().seconds(2.5)
    run.press("space").frames(2)
    run.press("c").frames(2)
    d = run.sprite("Dancer")
    assert round(d.ghost) == 0 and round(d.effects.get("color", 0)) == 0, f"effects {d.effects}"
