"""Rule-based describer."""

from __future__ import annotations

from scratch_gym.nl2scratch import sac_nl
from scratch_gym.nl2scratch.describer import describe
from scratch_gym.nl2scratch.program_slots import extract_program_slots
from scratch_gym.nl2scratch.text import loose_name, normalize_name, standalone_numbers

from .cases import WORKED_PROGRAM


def names_every_value(program: list[str], description: str) -> bool:
    """Whether the description writes every number and name of the program."""
    slots = extract_program_slots(program)
    text = normalize_name(description)
    numbers = set(standalone_numbers(description))
    names = slots.variable_names | slots.costume_names | slots.backdrop_names
    names |= slots.broadcast_names | ({slots.event_target} if slots.event_target else set())
    return slots.numeric_values <= numbers and all(
        normalize_name(n) in text or loose_name(n) in loose_name(text) for n in names
    )


def test_worked_example() -> None:
    text = describe(WORKED_PROGRAM)
    assert text.startswith("When the green flag is clicked")
    assert "Repeat until touching the edge or touching Receiver1" in text
    assert sac_nl(WORKED_PROGRAM, text).score == 1.0
    assert names_every_value(WORKED_PROGRAM, text)


def test_structure_and_quoting() -> None:
    program = [
        "when (space v) key pressed",
        "repeat (3)",
        "    say (hide now) for (2) seconds",
        "    if <(pick random (1) to (6)) = (3)> then",
        "        switch costume to [costume2]",
        "    else",
        "        next costume",
        "    end",
        "end",
    ]
    text = describe(program)
    assert text == (
        'When the space key is pressed, then: Repeat 3 times. Say "hide now" for 2 seconds. '
        "If a random number from 1 to 6 equals 3, then do this. Switch costume to costume2. "
        "Otherwise do this. Advance to the next costume. End of block. End of block."
    )
    assert describe(program) == text  # deterministic
    assert sac_nl(program, text).score == 1.0


def test_describer_on_800(diag800: list[dict]) -> None:
    perfect = 0
    for row in diag800:
        text = describe(row["pseudocode"])
        assert names_every_value(row["pseudocode"], text), row["key"]
        perfect += sac_nl(row["pseudocode"], text).perfect
    rate = perfect / len(diag800)
    print(f"describer SAC_nl = 1.0 rate: {rate:.4f}")
    assert rate >= 0.95
