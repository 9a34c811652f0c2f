"""Description-side slot extraction (guided by program slots)."""

from __future__ import annotations

from scratch_gym.nl2scratch.description_slots import extract_description_slots
from scratch_gym.nl2scratch.program_slots import extract_program_slots, program_identifiers

from .cases import WORKED_DESCRIPTION, WORKED_PROGRAM


def _slots(description: str, program: list[str] | None = None):
    guide = extract_program_slots(program) if program else None
    return extract_description_slots(description, guide, program_identifiers(program or []))


def test_worked_example_description() -> None:
    slots = _slots(WORKED_DESCRIPTION, WORKED_PROGRAM)
    assert slots.event_type == "green_flag"
    assert slots.action_types == {"go_to", "move", "set_variable", "turn_left", "turn_right"}
    assert slots.loop_types == {"forever", "repeat_until"}
    assert slots.condition_types == {"edge", "key_press", "touching"}
    assert slots.numeric_values == {"-171", "-97", "0", "10", "15"}
    assert slots.variable_names == {"score"}


def test_event_cues() -> None:
    assert _slots("When you click the green flag, hide.").event_type == "green_flag"
    assert _slots("When you click on this sprite, hide.").event_type == "sprite_clicked"
    assert _slots("When I receive start, hide.").event_type == "broadcast_receive"
    assert _slots("When the backdrop changes to night, hide.").event_type == "backdrop_switch"
    key = _slots("When you press the a key, hide.", ["when (a v) key pressed", "hide"])
    assert (key.event_type, key.event_target) == ("key_press", "a")
    other = _slots("When you press the b key, hide.", ["when (a v) key pressed", "hide"])
    assert other.event_target == "b"


def test_action_cues() -> None:
    text = (
        "When the flag is clicked, show up, wait half a second, glide for 1 second to x: 5, y: 6, "
        'say "hide and move", play the sound pop, stop all the sounds and disappear.'
    )
    program = [
        "when @greenFlag clicked", "show", "wait (0.5) seconds",
        "glide (1) secs to x: (5) y: (6)", "say (hide and move)", "play sound (pop v)",
        "stop all sounds", "hide",
    ]  # fmt: skip
    slots = _slots(text, program)
    assert slots.action_types == {
        "show",
        "wait",
        "glide",
        "say",
        "play_sound",
        "stop_sounds",
        "hide",
    }
    assert slots.numeric_values == {"0.5", "1", "5", "6"}


def test_motion_cues_distinguish_move_and_change_y() -> None:
    slots = _slots("When the flag is clicked, move up 10 steps, then move 5 steps.")
    assert slots.action_types == {"change_y", "move"}


def test_loop_cues() -> None:
    assert _slots("When the flag is clicked, do this 7 times: hide.").loop_counts == {"7"}
    assert _slots("When the flag is clicked, keep moving 10 steps.").loop_types == {"forever"}
    until = _slots("When the flag is clicked, keep moving 10 steps until you touch the edge.")
    assert until.loop_types == {"repeat_until"}
    assert until.condition_types == {"touching", "edge"}
    wait = _slots("When the flag is clicked, wait until the mouse is down.")
    assert wait.loop_types == frozenset()
    assert wait.condition_types == {"mouse_down"}


def test_condition_cues() -> None:
    text = (
        "When the flag is clicked, if level is more than 15, and music is 2, then hide. "
        "If the answer is less than 3, then show."
    )
    slots = _slots(text)
    assert slots.condition_types == {"greater_than", "equals", "less_than", "answer"}
    assert "key_press" not in _slots("When you press the space key, hide.").condition_types


def test_names_guided_by_program() -> None:
    program = ["when @greenFlag clicked", "switch costume to [ball-e]", "broadcast (Level_2 v)"]
    slots = _slots("When the flag is clicked, switch to ball e and broadcast Level 2.", program)
    assert slots.costume_names == {"ball-e"}
    assert slots.broadcast_names == {"level_2"}
    # The masked name neither adds a number nor loses the program's.
    assert slots.numeric_values == frozenset()
