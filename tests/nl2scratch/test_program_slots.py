"""Program-side slot extraction."""

from __future__ import annotations

from scratch_gym.nl2scratch.program_slots import (
    action_label,
    condition_types,
    extract_program_slots,
    program_identifiers,
)

from .cases import WORKED_PROGRAM


def test_worked_example_slots() -> None:
    slots = extract_program_slots(WORKED_PROGRAM)
    assert slots.event_type == "green_flag"
    assert slots.event_target is None
    assert slots.action_types == {"go_to", "move", "set_variable", "turn_left", "turn_right"}
    assert slots.variable_names == {"score"}
    assert slots.loop_types == {"forever", "repeat_until"}
    assert slots.condition_types == {"edge", "key_press", "touching"}
    assert slots.numeric_values == {"-171", "-97", "0", "10", "15"}


def test_events_and_targets() -> None:
    cases = {
        "when @greenFlag clicked": ("green_flag", None),
        "when (space v) key pressed": ("key_press", "space"),
        "when [left arrow v] key pressed": ("key_press", "left arrow"),
        "when this sprite clicked": ("sprite_clicked", None),
        "when I receive [Game Over v]": ("broadcast_receive", "game over"),
        "when backdrop switches to [Garden  Rock]": ("backdrop_switch", "garden rock"),
        "when I start as a clone": ("clone_start", None),
    }
    for hat, expected in cases.items():
        slots = extract_program_slots([hat, "hide"])
        assert (slots.event_type, slots.event_target) == expected, hat
    assert extract_program_slots(["when I receive [go v]"]).broadcast_names == {"go"}
    assert extract_program_slots(["when backdrop switches to [bd1]"]).backdrop_names == {"bd1"}


def test_action_labels() -> None:
    cases = {
        "show": "show",
        "hide": "hide",
        "move (10) steps": "move",
        "glide (1) secs to x: (0) y: (0)": "glide",
        "go to x: (1) y: (2)": "go_to",
        "go to (_mouse_ v)": "go_to",
        "turn right (15) degrees": "turn_right",
        "turn left (15) degrees": "turn_left",
        "point in direction (90 v)": "point_direction",
        "point towards (_mouse_ v)": "point_towards",
        "say (Hi!) for (2) seconds": "say",
        "think (Hmm)": "think",
        "wait (1) seconds": "wait",
        "wait until <mouse down?>": "wait",
        "broadcast (go v)": "broadcast",
        "play sound (pop v)": "play_sound",
        "stop all sounds": "stop_sounds",
        "ask (Name?) and wait": "ask",
        "set [score v] to (0)": "set_variable",
        "change [score v] by (1)": "change_variable",
        "change x by (10)": "change_x",
        "set y to (0)": "set_y",
        "set [ghost v] effect to (50)": "set_effect",
        "switch costume to [costume2]": "switch_costume",
        "next costume": "next_costume",
        "switch backdrop to [bd2]": "switch_backdrop",
        "delete this clone": "delete_clone",
    }
    for line, label in cases.items():
        assert action_label(line.lower()) == label, line
    for control in ("forever", "repeat (3)", "if <mouse down?> then", "else", "end"):
        assert action_label(control) is None


def test_loops_and_counts() -> None:
    slots = extract_program_slots(
        ["repeat (3.0)", "    repeat until <mouse down?>", "    end", "end", "repeat (n)", "end"]
    )
    assert slots.loop_types == {"repeat", "repeat_until"}
    assert slots.loop_counts == {"3"}


def test_condition_types() -> None:
    assert condition_types("<touching (Sprite1 v)?>") == {"touching"}
    assert condition_types("<touching (_edge_ v)?>") == {"touching", "edge"}
    assert condition_types("<touching color (-16711851)?>") == {"touching"}
    assert condition_types("<key (a v) pressed?>") == {"key_press"}
    assert condition_types("<mouse down?>") == {"mouse_down"}
    assert condition_types("<(answer) = (yes)>") == {"answer", "equals"}
    assert condition_types("<((a) + (b)) > (7)>") == {"greater_than"}
    both = "<<(Iron Pumped) > (100)> and <(Iron Pumped) < (200)>>"
    assert condition_types(both) == {"greater_than", "less_than"}
    slots = extract_program_slots(["if <((a) + (b)) > (7)> then", "hide", "end"])
    assert slots.condition_types == {"greater_than"}


def test_names_are_normalised() -> None:
    slots = extract_program_slots(
        [
            "set [ High  Score v] to (0)",
            "switch costume to ['Costume 5']",
            "switch backdrop to (Night v)",
            "broadcast (Start Game v) and wait",
        ]
    )
    assert slots.variable_names == {"high score"}
    assert slots.costume_names == {"costume 5"}
    assert slots.backdrop_names == {"night"}
    assert slots.broadcast_names == {"start game"}


def test_numbers_mask_identifiers() -> None:
    slots = extract_program_slots(
        [
            "when (1 v) key pressed",
            "switch costume to [costume5]",
            "set [Player 2 v] to (3.0)",
            "change [Player 2 v] by ((Player 2) * (-1))",
            "play sound (xylo3 v)",
            "point in direction (90 v)",
            "if <touching color (-16711851)?> then",
            "say (I have 4 lives) for (0.50) seconds",
            "end",
        ]
    )
    assert slots.numeric_values == {"3", "-1", "90", "4", "0.5"}
    assert {"costume5", "player 2", "xylo3", "-16711851"} <= program_identifiers(
        ["switch costume to [costume5]", "set [Player 2 v] to (1)", "play sound (xylo3 v)",
         "if <touching color (-16711851)?> then"]
    )  # fmt: skip
