"""Program-side slots of the paper protocol: what the published extractor reads from a program.

The extractor looks only at the start of each (stripped, lowercased) line and at a few fixed
substrings; it does not parse. In short:

* **Event**: the first line's hat, in the corpus spelling only (``when @greenFlag clicked``,
  ``when backdrop switches to [..]``, ``when I receive [..]``, ``... key pressed``,
  ``when this sprite clicked``). Backdrop and broadcast hats also give the name slot.
* **Actions**: one action per known line prefix (``show``, ``go to x:``/``go to (``, ``move``,
  ``turn left``, ``set``, ``change`` ...); ``change x by``/``change y by`` also count as ``move``.
* **Loops**: a line ``forever``, a line starting ``repeat until``, every ``repeat (N)``.
* **Conditions**: substrings of lines holding ``if <``, ``wait until <`` or starting ``repeat
  until``.
* **Names**: variables from ``set [v v]``/``change [v v]`` and the built-ins x, y, size, volume;
  costumes and backdrops from ``switch ... to [..]``; broadcasts from ``broadcast (..``.
* **Numbers**: every number in the text once all the names above and the sound names are blanked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from scratch_gym.nl2scratch.paper.text import mask_names, paper_name, paper_number, paper_numbers
from scratch_gym.nl2scratch.paper.text import sound_names as text_sound_names
from scratch_gym.nl2scratch.slots import Slots

# (line prefix, action) pairs; a line can give several (e.g. "move" never overlaps "show").
ACTION_PREFIXES: tuple[tuple[str, str], ...] = (
    ("show", "show"),
    ("hide", "hide"),
    ("go to x:", "go_to"),
    ("go to (", "go_to"),
    ("glide ", "glide"),
    ("move ", "move"),
    ("turn left", "turn_left"),
    ("turn right", "turn_right"),
    ("point in direction", "point_direction"),
    ("point towards", "point_towards"),
    ("say ", "say"),
    ("think ", "think"),
    ("wait ", "wait"),
    ("switch costume to", "switch_costume"),
    ("switch backdrop to", "switch_backdrop"),
    ("next costume", "next_costume"),
    ("next backdrop", "next_backdrop"),
    ("set ", "set_variable"),
    ("change ", "change_variable"),
    ("change x by", "move"),
    ("change y by", "move"),
    ("broadcast ", "broadcast"),
    ("play sound", "play_sound"),
    ("stop all sounds", "stop_sounds"),
    ("ask ", "ask"),
)
BUILTIN_PREFIXES: tuple[tuple[str, str], ...] = (
    ("set x to", "x"), ("change x by", "x"), ("set y to", "y"), ("change y by", "y"),
    ("set size to", "size"), ("change size by", "size"),
    ("set volume to", "volume"), ("change volume by", "volume"),
)  # fmt: skip
# Condition substrings, checked on condition-bearing lines.
CONDITION_SUBSTRINGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("touching", ("touching",)),
    ("edge", ("edge",)),
    ("mouse_down", ("mouse down?",)),
    ("random", ("pick random",)),
    ("answer", ("answer",)),
    ("equals", ("=",)),
    ("greater_than", (" > ", "> (")),
    ("less_than", (" < ", "< (")),
)
_REPEAT_COUNT = re.compile(r"repeat \((-?\d+(?:\.\d+)?)\)")
_SET_OR_CHANGE_VAR = re.compile(r"(?:set|change) \[([^\]]+?) v\]")
_KEY_HAT = re.compile(r"when [\[\(]([^\]\)]+?)(?: v)?[\]\)] key pressed")
_NAMED_ARGS: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("switch costume to", re.compile(r"switch costume to \[([^\]]+)\]"), "costume_names"),
    ("switch backdrop to", re.compile(r"switch backdrop to \[([^\]]+)\]"), "backdrop_names"),
    ("broadcast ", re.compile(r"broadcast \(([^)]+)"), "broadcast_names"),
)


def _event(first: str, values: dict[str, Any]) -> None:
    """Event type and target of the first line (stripped, lowercased)."""
    named = (
        ("when backdrop switches to [", "backdrop_switch", r"when backdrop switches to \[([^\]]+)\]",
         "backdrop_names"),
        ("when i receive [", "receive", r"when i receive \[([^\]]+)\]", "broadcast_names"),
    )  # fmt: skip
    if first.startswith("when @greenflag clicked"):
        values["event_type"] = "green_flag"
        return
    for prefix, event, pattern, slot in named:
        if first.startswith(prefix):
            values["event_type"] = event
            match = re.search(pattern, first)
            if match:
                values["event_target"] = paper_name(match.group(1))
                values[slot].add(values["event_target"])
            return
    if " key pressed" in first:
        values["event_type"] = "key_pressed"
        match = _KEY_HAT.search(first)
        if match:
            values["event_target"] = paper_name(match.group(1))
    elif first.startswith("when this sprite clicked"):
        values["event_type"] = "sprite_clicked"


def _line(lower: str, values: dict[str, Any]) -> None:
    """Actions, loops, names and conditions of one stripped, lowercased line."""
    if lower == "forever":
        values["loop_types"].add("forever")
    if lower.startswith("repeat until"):
        values["loop_types"].add("repeat_until")
    for count in _REPEAT_COUNT.findall(lower):
        values["loop_types"].add("repeat")
        values["loop_counts"].add(paper_number(count))
    for prefix, action in ACTION_PREFIXES:
        if lower.startswith(prefix):
            values["action_types"].add(action)
    for prefix, pattern, slot in _NAMED_ARGS:
        if lower.startswith(prefix):
            match = pattern.search(lower)
            if match:
                values[slot].add(paper_name(match.group(1)))
    for name in _SET_OR_CHANGE_VAR.findall(lower):
        values["variable_names"].add(paper_name(name))
    for prefix, name in BUILTIN_PREFIXES:
        if lower.startswith(prefix):
            values["variable_names"].add(name)
    if "if <" in lower or "wait until <" in lower or lower.startswith("repeat until"):
        for condition, needles in CONDITION_SUBSTRINGS:
            if any(n in lower for n in needles):
                values["condition_types"].add(condition)
        if "key (" in lower and "pressed?" in lower:
            values["condition_types"].add("key_pressed")


def scorer_lines(program: str | Iterable[str] | None) -> list[str]:
    """Non-blank lines, as the scorer splits text (``str.splitlines``), indentation kept."""
    if program is None:
        return []
    text = program if isinstance(program, str) else "\n".join(program)
    return [line for line in text.splitlines() if line.strip()]


def paper_program_slots(lines: Sequence[str]) -> Slots:
    """Slots of a program given as its non-blank lines (indentation allowed)."""
    return _program_slots(tuple(lines))


@lru_cache(maxsize=4096)
def _program_slots(lines: tuple[str, ...]) -> Slots:
    values: dict[str, Any] = {
        "event_type": None,
        "event_target": None,
        **{s: set() for s in _SET_SLOT_NAMES},
    }
    if lines:
        _event(lines[0].strip().lower(), values)
    for line in lines:
        _line(line.strip().lower(), values)
    lower_text = "\n".join(lines).lower()
    names = set(values["variable_names"]) | set(values["costume_names"])
    names |= set(values["backdrop_names"]) | set(values["broadcast_names"])
    if values["event_target"]:
        names.add(values["event_target"])
    names |= text_sound_names(lower_text)
    values["numeric_values"] = paper_numbers(mask_names(lower_text, names))
    return _to_slots(values)


_SET_SLOT_NAMES = (
    "action_types", "loop_types", "loop_counts", "condition_types", "numeric_values",
    "variable_names", "costume_names", "backdrop_names", "broadcast_names",
)  # fmt: skip


def _to_slots(values: dict[str, Any]) -> Slots:
    return Slots(
        event_type=values["event_type"],
        event_target=values["event_target"],
        **{s: frozenset(values[s]) for s in _SET_SLOT_NAMES},
    )


@dataclass(frozen=True)
class PaperProgramSlots:
    """The paper protocol's program-side extractor
    (:class:`~scratch_gym.nl2scratch.interfaces.ProgramSlotExtractor`)."""

    def lines(self, program: str | Iterable[str] | None) -> list[str]:
        return scorer_lines(program)

    def slots(self, lines: Sequence[str]) -> Slots:
        return paper_program_slots(lines)
