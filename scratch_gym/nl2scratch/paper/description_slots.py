"""Description-side slots of the paper protocol: the published extractor's purely lexical reading.

The description is lowercased and searched for fixed phrases; the program is never consulted
(its names are only matched later, when scoring name slots). Behaviour worth knowing, all kept
on purpose because the published scores depend on it:

* every number word counts, including ``"a"`` as 1; ``"half"`` is not 0.5 and ``"face right"``
  is not 90; numbers keep their sign (``"move back 10 steps"`` gives -10);
* ``repeat_until`` is added for any ``"until"``; ``forever`` for ``"as long as"`` or ``"keep "``
  (when no repeat count was read);
* ``equals`` is added for ``" is "`` once a condition word (``if``/``until``) appears;
* actions only come from the phrase lists in :mod:`~scratch_gym.nl2scratch.paper.lexicon`
  (``"play the X sound"`` is not ``play_sound``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from scratch_gym.nl2scratch.paper import lexicon as lex
from scratch_gym.nl2scratch.paper.program_slots import _SET_SLOT_NAMES, _to_slots
from scratch_gym.nl2scratch.paper.text import (
    mask_names,
    paper_name,
    paper_number,
    paper_numbers,
    sound_names,
)
from scratch_gym.nl2scratch.slots import Slots

W = lex.WORD_RUN
_KEY_TARGET = r'(?:the )?(?:"([^"]+)"|([a-z0-9_ ]+?))'
_KEY_EVENT_PATTERNS = (
    rf"when {_KEY_TARGET} key (?:is )?pressed",
    rf"press(?:ed|ing)? {_KEY_TARGET} key",
    rf"hold(?:ing)? {_KEY_TARGET} key",
    rf"let go of {_KEY_TARGET} key",
)
_CLAUSE_END = r"(?:,|\.| then| and|$)"
# Phrases that name the variable they set or change (group 1).
_VARIABLE_PATTERNS = (
    rf"\bchange ({W}) by\b",
    r"\b(?:decrease|reduce|lower) ([^,.]+?) by\b",
    rf"\btake away [^,.]* from ([^,.]+?){_CLAUSE_END}",
    r"\bupdate ([^,.]+?) to\b",
    rf"\bmake ({W}) zero\b",
    r"\bmake ([^,.]+?) zero\b",
    rf"\bsubtract [^,.]* from ({W}){_CLAUSE_END}",
    r"\bset(?:ting)? the ([^,.]+?) to\b",
    r"\bset ([^,.=]+? = [^,.]+?) to\b",
    r"\bmake ([^,.]+?) equal to\b",
    r"\bmake ([^,.]+?) be\b",
    r"\b(?:make|set) the ([^,.]+?) go (?:up|down|left|right) by\b",
    rf"\badd [^,.]* to ([^,.]+?){_CLAUSE_END}",
)
_SET_PHRASES = (
    rf"\bset ({W}) to\b",
    rf"\bmake ({W}) zero\b",
    r"\bmake [^,.]+? zero\b",
    r"\bupdate [^,.]+ to\b",
    r"\bset [^,.=]+? = [^,.]+? to\b",
    r"\bchange [^,.]+ to\b",
    r"\bmake [^,.]+ equal to\b",
    r"\bmake [^,.]+ be\b",
)
_BROADCAST_NAME = r'(?:broadcast|send (?:out )?the message|send out) "?([^",.]+?)"?' + _CLAUSE_END


def _has(text: str, phrases: tuple[str, ...]) -> bool:
    return any(p in text for p in phrases)


def _event(lower: str, values: dict[str, Any]) -> None:
    """Event type and target from the trigger clause (receive: from the whole text)."""
    trigger = re.split(r",|\.|\bthen\b", lower, maxsplit=1)[0].strip()
    if _has(trigger, lex.SPRITE_CLICK_TRIGGERS):
        values["event_type"] = "sprite_clicked"
    elif _has(trigger, lex.GREEN_FLAG_CUES):
        values["event_type"] = "green_flag"
    elif _has(trigger, lex.BACKDROP_CUES) and _has(trigger, lex.BACKDROP_SWITCH_VERBS):
        values["event_type"] = "backdrop_switch"
        for prefix in lex.BACKDROP_TARGET_PREFIXES:
            match = re.search(rf"{prefix}\s+([^,.]+?)(?:,|\.| and\b| then\b|$)", trigger)
            if match:
                name = paper_name(match.group(1))
                if name:
                    values["event_target"] = name
                    values["backdrop_names"].add(name)
                break
    elif _has(lower, lex.RECEIVE_CUES):
        values["event_type"] = "receive"
        match = re.search(r"receive ([a-z0-9_\- !?]+?)(?:,|\.| then| and|$)", lower)
        if match:
            values["event_target"] = paper_name(match.group(1))
            values["broadcast_names"].add(values["event_target"])
    elif _has(trigger, lex.KEY_EVENT_CUES):
        values["event_type"] = "key_pressed"
        for pattern in _KEY_EVENT_PATTERNS:
            match = re.search(pattern, trigger)
            if match:
                values["event_target"] = paper_name(next(g for g in match.groups() if g))
                break
    elif _has(trigger, lex.SPRITE_EVENT_CUES):
        values["event_type"] = "sprite_clicked"


def _repeat_counts(lower: str) -> set[str]:
    counts: set[str] = set()
    for pattern in lex.REPEAT_COUNT_PATTERNS:
        for match in re.finditer(pattern, lower):
            counts |= paper_numbers(match.group(1).strip())
    return counts


def _loops(lower: str, values: dict[str, Any]) -> None:
    if _has(lower, lex.FOREVER_CUES):
        values["loop_types"].add("forever")
    counts = _repeat_counts(lower)
    if counts:
        values["loop_types"].add("repeat")
        values["loop_counts"] |= counts
    if _has(lower, lex.ONCE_CUES):
        values["loop_types"].add("repeat")
        values["loop_counts"].add("1")
        values["numeric_values"].add("1")
    if "twice" in lower or ("one more time" in lower and "do that again" in lower):
        values["loop_types"].add("repeat")
        values["loop_counts"].add("2")
        values["numeric_values"].add("2")
    if "until" in lower:
        values["loop_types"].add("repeat_until")
    elif "as long as" in lower:
        values["loop_types"].add("forever")
    elif "keep " in lower and not values["loop_counts"]:
        values["loop_types"].add("forever")


def _costume_targets(lower: str) -> set[str]:
    targets: set[str] = set()
    for pattern in lex.COSTUME_TARGET_PATTERNS:
        for match in re.finditer(pattern, lower):
            name = paper_name(match.group(1))
            if name and name not in {"the", "it"}:
                targets.add(name)
    return targets


def _actions(lower: str, values: dict[str, Any], costume_targets: set[str]) -> None:
    actions: set[str] = values["action_types"]
    if _has(lower, lex.SHOW_CUES) or re.search(r"\bshow\b", lower):
        broadcast_phrase = _has(lower, lex.BROADCAST_PHRASE_CUES)
        if not broadcast_phrase or "show up" in lower or "show yourself" in lower:
            actions.add("show")
    if _has(lower, lex.HIDE_CUES) or re.search(r"\bhide\b", lower):
        actions.add("hide")
    if _has(lower, lex.GO_TO_CUES) or ("position where x is" in lower and "y is" in lower):
        actions.add("go_to")
    if "move to the middle" in lower or "middle of the screen" in lower:
        actions.add("go_to")
        values["numeric_values"].add("0")
    if _has(lower, lex.MOVE_CUES) and (
        "step" in lower or "backward" in lower or "forward" in lower
    ):
        actions.add("move")
    if "move " in lower and "steps" in lower:
        actions.add("move")
    for action, cues in lex.SIMPLE_ACTION_CUES:
        if _has(lower, cues):
            actions.add(action)
    if _has(lower, lex.POINT_STRAIGHT_CUES):
        actions.add("point_direction")
        values["numeric_values"].add("0")
    if _has(lower, lex.SWITCH_COSTUME_CUES) or costume_targets:
        actions.add("switch_costume")
        values["costume_names"] |= costume_targets
    if _has(lower, lex.SWITCH_BACKDROP_CUES):
        actions.add("switch_backdrop")
        match = re.search(r"(?:change the backdrop to|switch backdrop to) ([a-z0-9_\-]+)", lower)
        if match:
            values["backdrop_names"].add(paper_name(match.group(1)))
    change_to = re.search(r"\bchange [^,.]+ to\b", lower)
    if not costume_targets and any(re.search(p, lower) for p in _SET_PHRASES):
        actions.add("set_variable")
    changes = (
        re.search(rf"\bchange ({W}) by\b", lower)
        or "subtract" in lower
        or "add " in lower
        or _has(lower, lex.CHANGE_VARIABLE_CUES)
        or re.search(r"\b(?:make|set) the [^,.]+ go (?:up|down|left|right) by\b", lower)
    )
    if changes and not _has(lower, lex.COSTUME_OR_BACKDROP_CHANGE_CUES) and not change_to:
        actions.add("change_variable")
    if re.search(r"\bmove (?:down|up|left|right)\b", lower):
        actions |= {"move", "change_variable"}
    if re.search(r"\bgo (?:down|up|left|right)\s+(-?\d+(?:\.\d+)?)\s+steps?\b", lower):
        actions |= {"move", "change_variable"}
        if "go down" in lower or "go up" in lower:
            values["variable_names"].add("y")
        if "go left" in lower or "go right" in lower:
            values["variable_names"].add("x")
    if re.search(r"\bx\s*(?:=|is)\s*-?\d", lower) and re.search(r"\by\s*(?:=|is)\s*-?\d", lower):
        actions.add("go_to")
        if "middle of the screen" in lower:
            values["numeric_values"].add("0")


def _reasonable_variable(name: str) -> bool:
    name = paper_name(name)
    if not name or any(name.startswith(p) for p in lex.BAD_VARIABLE_PREFIXES):
        return False
    return not any(word in lex.BAD_VARIABLE_WORDS for word in name.split())


def _variables(lower: str, values: dict[str, Any], costume_targets: set[str]) -> None:
    names: set[str] = values["variable_names"]
    patterns = [rf"\bset ({W}) to\b"]
    if not costume_targets:
        patterns.append(r"\bchange ([^,.]+?) to\b")
    for pattern in (*patterns, *_VARIABLE_PATTERNS):
        names |= {paper_name(m.group(1)) for m in re.finditer(pattern, lower)}
    for builtin in lex.BUILTIN_VARIABLES:
        if re.search(rf"\b(?:set|change|make)\s+{builtin}\b", lower) or re.search(
            rf"\bfrom {builtin}{_CLAUSE_END}", lower
        ):
            names.add(builtin)
    for name, phrases in lex.DIRECTION_VARIABLES:
        if _has(lower, phrases):
            names.add(name)


def _conditions(lower: str, values: dict[str, Any]) -> None:
    conditions: set[str] = values["condition_types"]
    conditional = "if" in lower or "until" in lower
    if _has(lower, ("touching", "touch ")):
        conditions.add("touching")
    if "edge" in lower:
        conditions.add("edge")
    if conditional and "key" in lower and _has(lower, lex.KEY_CONDITION_CUES):
        conditions.add("key_pressed")
    if ("mouse" in lower and "until" in lower) or "mouse down" in lower:
        conditions.add("mouse_down")
    if conditional and _has(lower, lex.RANDOM_CUES):
        conditions.add("random")
    if conditional and "answer" in lower:
        conditions.add("answer")
    if " if " in f" {lower} " or "until" in lower:
        plain_is = " is " in lower and not _has(lower, (" key is pressed", " key is not pressed"))
        if "equals" in lower or plain_is or " is not " in lower:
            conditions.add("equals")
        if _has(lower, lex.GREATER_CUES):
            conditions.add("greater_than")
        if _has(lower, lex.LESS_CUES):
            conditions.add("less_than")
    if "costume number" in lower:
        conditions.add("equals")


def _numbers(lower: str, values: dict[str, Any]) -> None:
    """Numbers once names are blanked, plus rule-given ones; signed step phrases win."""
    names = set(values["variable_names"]) | set(values["costume_names"])
    names |= set(values["backdrop_names"]) | set(values["broadcast_names"])
    if values["event_target"]:
        names.add(values["event_target"])
    names |= sound_names(lower)
    numbers = paper_numbers(mask_names(lower, names)) | values["numeric_values"]
    signed: set[str] = set()
    for pattern, sign in lex.SIGNED_STEP_PATTERNS:
        signed |= {paper_number(sign * abs(float(raw))) for raw in re.findall(pattern, lower)}
    numbers |= signed
    numbers -= {s[1:] for s in signed if s.startswith("-")}
    values["numeric_values"] = numbers


@lru_cache(maxsize=4096)
def paper_description_slots(description: str) -> Slots:
    """Slots the published extractor reads from an English description."""
    lower = description.lower()
    values: dict[str, Any] = {
        "event_type": None,
        "event_target": None,
        **{s: set() for s in _SET_SLOT_NAMES},
    }
    costume_targets = _costume_targets(lower)
    _event(lower, values)
    _loops(lower, values)
    _actions(lower, values, costume_targets)
    _variables(lower, values, costume_targets)
    _conditions(lower, values)
    values["broadcast_names"] |= {
        paper_name(m.group(1)) for m in re.finditer(_BROADCAST_NAME, lower)
    }
    values["variable_names"] = {n for n in values["variable_names"] if _reasonable_variable(n)}
    for slot in ("costume_names", "backdrop_names", "broadcast_names"):
        values[slot] = {paper_name(n) for n in values[slot] if paper_name(n)}
    _numbers(lower, values)
    return _to_slots(values)


@dataclass(frozen=True)
class PaperDescriptionSlots:
    """The paper protocol's description-side extractor
    (:class:`~scratch_gym.nl2scratch.interfaces.DescriptionSlotExtractor`): lexical, so the
    program is not consulted."""

    def slots(self, description: str, program: Slots, program_lines: Sequence[str]) -> Slots:
        return paper_description_slots(description)
