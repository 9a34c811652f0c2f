"""Rule-based describer: scratchblocks lines to a rigid but faithful English description.

Deterministic, no model. It keeps the script's structure and control flow ("If ..., then: ...
End of condition."; "Repeat 7 times: ... End of loop."), every number exactly as written, and
every name (variables, costumes, backdrops, messages, sounds, sprites, keys). Text literals are
quoted, so words inside them ("hide", "move") are not read as instructions. Phrasing is chosen so
that :func:`~scratch_gym.nl2scratch.protocols.sac_nl` reads back the program's slots; blocks it does not
know are quoted verbatim.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from scratch_gym.nl2scratch.text import is_number, program_lines


@dataclass(frozen=True)
class Group:
    """A bracketed argument: ``(`` reporter/number/text, ``[`` name/text, ``<`` boolean."""

    opener: str
    content: str


Token = str | Group


def _bool_end(text: str, start: int) -> int:
    """Index after the ``>`` closing the boolean opened at ``text[start]``.

    A ``<`` followed by a space and a ``>`` preceded by a space are comparison operators.
    """
    depth = 0
    paren = 0
    for i in range(start, len(text)):
        ch = text[i]
        if ch in "([":
            paren += 1
        elif ch in ")]":
            paren -= 1
        elif paren == 0 and ch == "<" and (i + 1 >= len(text) or text[i + 1] != " "):
            depth += 1
        elif paren == 0 and ch == ">" and i > 0 and text[i - 1] != " ":
            depth -= 1
            if depth == 0:
                return i + 1
    return len(text)


def _paren_end(text: str, start: int) -> int:
    opener, closer = text[start], {"(": ")", "[": "]"}[text[start]]
    depth = 0
    for i in range(start, len(text)):
        if text[i] == opener:
            depth += 1
        elif text[i] == closer:
            depth -= 1
            if depth == 0:
                return i + 1
    return len(text)


def tokenize(text: str) -> list[Token]:
    """Top-level words and bracket groups of a block or an argument."""
    tokens: list[Token] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch in "([":
            end = _paren_end(text, i)
            tokens.append(Group(ch, text[i + 1 : end - 1]))
            i = end
        elif ch == "<" and i + 1 < len(text) and text[i + 1] != " ":
            end = _bool_end(text, i)
            tokens.append(Group("<", text[i + 1 : end - 1]))
            i = end
        else:
            j = i
            while j < len(text) and not text[j].isspace() and text[j] not in "([":
                if text[j] == "<" and j + 1 < len(text) and text[j + 1] != " ":
                    break
                j += 1
            tokens.append(text[i:j])
            i = j
    return tokens


def _shape(tokens: list[Token]) -> str:
    return " ".join("@" if isinstance(t, Group) else t.lower() for t in tokens)


def _groups(tokens: list[Token]) -> list[Group]:
    return [t for t in tokens if isinstance(t, Group)]


_SPECIAL = {
    "_mouse_": "the mouse pointer",
    "mouse-pointer": "the mouse pointer",
    "_edge_": "the edge",
    "edge": "the edge",
    "_random_": "a random position",
    "random position": "a random position",
    "_myself_": "myself",
    "_stage_": "the stage",
}


def _menu(content: str) -> str:
    """A dropdown or name argument as prose."""
    value = re.sub(r"\s+v$", "", content.strip())
    return _SPECIAL.get(value.lower(), value)


class Describer:
    """Describes one program; ``variables`` are written bare, other text literals quoted."""

    def __init__(self, variables: Iterable[str] = ()) -> None:
        self.variables = {v.strip().lower() for v in variables}

    # Reporters and booleans -------------------------------------------------------------
    def value(self, group: Group) -> str:
        """A reporter, number, text or boolean argument as prose."""
        if group.opener == "<":
            return self.boolean(group.content)
        content = group.content.strip()
        if group.opener == "[" or re.search(r"\sv$", content):
            bare = re.sub(r"\s+v$", "", content)
            return bare.strip() if is_number(bare) else _menu(content)
        if is_number(content):
            return content.strip()
        tokens = tokenize(content)
        if any(isinstance(t, Group) for t in tokens):
            return self.reporter(tokens)
        if content.lower() in self.variables or content.lower() in _REPORTER_WORDS:
            return _REPORTER_WORDS.get(content.lower(), content)
        return f'"{content}"' if content else '""'

    def reporter(self, tokens: list[Token]) -> str:
        shape, args = _shape(tokens), [self.value(g) for g in _groups(tokens)]
        templates = {
            "pick random @ to @": "a random number from {0} to {1}",
            "@ + @": "({0} plus {1})",
            "@ - @": "({0} minus {1})",
            "@ * @": "({0} multiplied by {1})",
            "@ / @": "({0} divided by {1})",
            "@ mod @": "({0} modulo {1})",
            "round @": "({0} rounded)",
            "@ of @": "(the {0} of {1})",
            "join @ @": "({0} joined with {1})",
            "letter @ of @": "(letter {0} of {1})",
            "length of @": "(the length of {0})",
            "item @ of @": "(item {0} of the list {1})",
            "costume @": "(its current picture {0})",
            "backdrop @": "(the current stage picture {0})",
        }
        if shape in templates:
            return templates[shape].format(*args)
        return self.generic(tokens)

    def boolean(self, content: str) -> str:
        tokens = tokenize(content)
        shape, groups = _shape(tokens), _groups(tokens)
        args = [self.value(g) for g in groups]
        if shape in ("touching @?", "touching @ ?"):
            return f"touching {args[0]}"
        if shape in ("touching color @?", "touching color @ ?"):
            return f"touching the color {args[0]}"
        if shape in (
            "color @ is touching @?",
            "@ is touching @?",
            "@ is touching @ ?",
            "color @ is touching @ ?",
        ):
            return f"color {args[0]} is touching color {args[1]}"
        if shape in ("key @ pressed?", "key @ pressed ?"):
            return f"the {args[0]} key is pressed"
        if shape == "mouse down?":
            return "the mouse is down"
        templates = {
            "@ = @": "{0} equals {1}",
            "@ > @": "{0} is greater than {1}",
            "@ < @": "{0} is less than {1}",
            "@ and @": "{0} and {1}",
            "@ or @": "{0} or {1}",
            "not @": "not ({0})",
            "@ contains @?": "{0} contains {1}",
            "@ contains @ ?": "{0} contains {1}",
        }
        if shape in templates:
            return templates[shape].format(*args)
        return self.generic(tokens)

    def generic(self, tokens: list[Token]) -> str:
        """Unknown shapes: words kept, arguments described."""
        parts: list[str] = []
        words: list[str] = []
        for token in tokens:
            if isinstance(token, Group):
                if words:
                    parts.append('"' + " ".join(words) + '"')
                    words = []
                parts.append(self.value(token))
            else:
                words.append(token)
        if words:
            parts.append('"' + " ".join(words) + '"')
        return "(" + " ".join(parts) + ")"

    # Blocks ------------------------------------------------------------------------------
    def hat(self, tokens: list[Token]) -> str:
        shape, args = _shape(tokens), [self.value(g) for g in _groups(tokens)]
        if re.fullmatch(r"when (?:@greenflag|green flag|flag) clicked", shape):
            return "When the green flag is clicked"
        if shape == "when @ key pressed":
            return f"When the {args[0]} key is pressed"
        if shape == "when this sprite clicked":
            return "When this sprite is clicked"
        if shape == "when stage clicked":
            return "When the stage is clicked"
        if shape == "when i receive @":
            return f"When I receive the message {args[0]}"
        if shape == "when backdrop switches to @":
            return f"When the backdrop switches to {args[0]}"
        if shape == "when i start as a clone":
            return "When I start as a clone"
        return "When " + " ".join(self.value(t) if isinstance(t, Group) else t for t in tokens[1:])

    def statement(self, tokens: list[Token]) -> str:
        shape, groups = _shape(tokens), _groups(tokens)
        args = [self.value(g) for g in groups]
        for pattern, template in _STATEMENTS:
            if pattern == shape:
                return template(args) if callable(template) else template.format(*args)
        return "Run the block " + " ".join(
            self.value(t) if isinstance(t, Group) else f'"{t}"' for t in tokens
        )


_REPORTER_WORDS = {
    "x position": "x position",
    "y position": "y position",
    "direction": "its heading angle",
    "answer": "the answer",
    "timer": "the stopwatch value",
    "mouse x": "mouse x",
    "mouse y": "mouse y",
    "loudness": "the loudness",
    "username": "the username",
    "size": "its scale",
    "volume": "the loudness setting",
}


def _say(verb: str) -> Callable[[list[str]], str]:
    return lambda a: f"{verb} {a[0]}" + (f" for {a[1]} seconds" if len(a) > 1 else "")


_STATEMENTS: tuple[tuple[str, str | Callable[[list[str]], str]], ...] = (
    ("show", "Show the sprite"),
    ("hide", "Hide the sprite"),
    ("show variable @", "Show variable {0} on the stage"),
    ("hide variable @", "Hide variable {0} from the stage"),
    (
        "move @ steps",
        lambda a: (
            f"Move {a[0]} steps" if is_number(a[0]) else f"Move a number of steps equal to {a[0]}"
        ),
    ),
    ("glide @ secs to x: @ y: @", "Glide for {0} seconds to position x = {1}, y = {2}"),
    ("glide @ secs to @", "Glide for {0} seconds to {1}"),
    ("go to x: @ y: @", "Go to x = {0}, y = {1}"),
    ("go to @", "Go to {0}"),
    ("go to front layer", "Go to the front layer"),
    ("go to back layer", "Go to the back layer"),
    ("go to @ layer", "Go to the {0} layer"),
    ("go @ @ layers", "Shift {0} by {1} layers"),
    ("turn right @ degrees", "Turn right {0} degrees"),
    ("turn cw @ degrees", "Turn right {0} degrees"),
    ("turn @turnright @ degrees", "Turn right {0} degrees"),
    ("turn left @ degrees", "Turn left {0} degrees"),
    ("turn ccw @ degrees", "Turn left {0} degrees"),
    ("turn @turnleft @ degrees", "Turn left {0} degrees"),
    ("point in direction @", "Point in direction {0}"),
    ("point towards @", "Point towards {0}"),
    ("if on edge, bounce", "Bounce off the edge"),
    ("set rotation style @", "Set rotation style to {0}"),
    ("set x to @", "Set x to {0}"),
    ("set y to @", "Set y to {0}"),
    ("change x by @", "Change x by {0}"),
    ("change y by @", "Change y by {0}"),
    ("say @ for @ seconds", _say("Say")),
    ("say @ for @ secs", _say("Say")),
    ("say @", _say("Say")),
    ("think @ for @ seconds", _say("Think")),
    ("think @ for @ secs", _say("Think")),
    ("think @", _say("Think")),
    ("wait @ seconds", "Wait {0} seconds"),
    ("wait @ secs", "Wait {0} seconds"),
    ("wait until @", "Wait until {0}"),
    ("broadcast @", "Broadcast the message {0}"),
    ("broadcast @ and wait", "Broadcast the message {0} and let every receiver finish first"),
    ("play sound @", "Play the sound {0}"),
    ("start sound @", "Play the sound {0}"),
    ("play sound @ until done", "Play the sound {0} to the end"),
    ("stop all sounds", "Stop all sounds"),
    ("ask @ and wait", "Ask {0} and wait"),
    ("set size to @ %", "Set size to {0}%"),
    ("set size to @", "Set size to {0}%"),
    ("change size by @", "Change size by {0}"),
    ("set volume to @ %", "Set volume to {0}%"),
    ("change volume by @", "Change volume by {0}"),
    ("set @ effect to @", "Set the effect {0} to {1}"),
    ("change @ effect by @", "Change the effect {0} by {1}"),
    ("clear graphic effects", "Clear graphic effects"),
    ("set @ to @", "Set variable {0} to {1}"),
    ("change @ by @", "Change variable {0} by {1}"),
    ("switch costume to @", "Switch costume to {0}"),
    ("next costume", "Advance to the next costume"),
    ("switch backdrop to @", "Switch the backdrop to {0}"),
    ("switch backdrop to @ and wait", "Switch the backdrop to {0}"),
    ("next backdrop", "Advance to the next backdrop"),
    ("create clone of @", "Create a clone of {0}"),
    ("delete this clone", "Delete this clone"),
    ("stop @", "Stop {0}"),
    ("pen down", "Put the pen down"),
    ("pen up", "Lift the pen up"),
    ("erase all", "Erase all"),
    ("stamp", "Stamp"),
    ("reset timer", "Reset the timer"),
    ("add @ to @", "Add {0} to the list {1}"),
    ("delete @ of @", "Delete item {0} of the list {1}"),
    ("delete all of @", "Delete all of the list {0}"),
    ("insert @ at @ of @", "Insert {0} at {1} of the list {2}"),
    ("replace item @ of @ with @", "Replace item {0} of the list {1} with {2}"),
)


def _variables(lines: list[str]) -> set[str]:
    names: set[str] = set()
    for line in lines:
        match = re.match(r"\s*(?:set|change|show variable|hide variable)\s*\[([^\]]+)\]", line)
        if match and not re.search(r"\]\s*effect\b", line):
            names.add(re.sub(r"\s+v$", "", match.group(1).strip()))
    return names


def describe(program: str | Iterable[str]) -> str:
    """An English description of a program (scratchblocks text or lines)."""
    lines = program_lines(program)
    describer = Describer(_variables(lines))
    sentences: list[str] = []
    opening: str | None = None
    for raw in lines:
        line = raw.strip()
        low = line.lower()
        tokens = tokenize(line)
        groups = _groups(tokens)
        if low.startswith("when ") and opening is None and not sentences:
            opening = describer.hat(tokens)
            continue
        if low == "end":
            sentences.append("End of block")
        elif low == "else":
            sentences.append("Otherwise do this")
        elif low == "forever":
            sentences.append("Forever do this")
        elif low.startswith("repeat until") and groups:
            sentences.append(f"Repeat until {describer.value(groups[0])}")
        elif low.startswith("repeat") and groups:
            sentences.append(f"Repeat {describer.value(groups[0])} times")
        elif low.startswith("if ") and groups:
            sentences.append(f"If {describer.value(groups[0])}, then do this")
        else:
            sentences.append(describer.statement(tokens))
    body = ". ".join(sentences)
    if opening is None:
        return body + "." if body else ""
    return f"{opening}, then: {body}." if body else f"{opening}."
