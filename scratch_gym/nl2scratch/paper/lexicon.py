"""Word lists of the paper protocol's lexical SAC extractors (NL2Scratch's published scorer).

These are the phrases the published extractor looks for, reproduced as data so that the paper
protocol scores items exactly as the published scorer does. The rules that use them live in
:mod:`scratch_gym.nl2scratch.paper.description_slots` and
:mod:`scratch_gym.nl2scratch.paper.program_slots`.
"""

from __future__ import annotations

# Number words; "a" also counts as 1 and "thousand" as a multiplier (see paper_numbers).
NUMBER_WORDS: dict[str, int] = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
}  # fmt: skip

# A word of letters (any script) optionally continued by space/dot/apostrophe/hyphen words.
WORD_RUN = r"[^\W\d_][^\W_]*(?:[ .'\-][^\W\d_][^\W_]*)*"

# Events: the trigger clause is the description up to the first comma, period or "then".
SPRITE_CLICK_TRIGGERS = ("click on this sprite", "click this sprite", "click on the sprite")
GREEN_FLAG_CUES = ("green flag",)
BACKDROP_CUES = ("backdrop", "background")
BACKDROP_SWITCH_VERBS = ("change", "changes", "changed", "switch", "switches", "switching")
BACKDROP_TARGET_PREFIXES = (
    "when the backdrop changes to", "when the background changes to",
    "when we change the backdrop to", "when we change the background to",
    "backdrop changes to", "background changes to", "backdrop switches to",
)  # fmt: skip
RECEIVE_CUES = ("receive",)
KEY_EVENT_CUES = ("key", "press", "pressed", "pressing", "hold", "holding", "let go")
SPRITE_EVENT_CUES = ("sprite", "click")

# Loops.
FOREVER_CUES = ("forever", "over and over", "again and again")
ONCE_CUES = ("just once", "one time")
REPEAT_COUNT_PATTERNS = (
    r"repeat ([a-z0-9 .-]+?) times",
    r"do this ([a-z0-9 .-]+?) times",
    r"do that ([a-z0-9 .-]+?) times",
    r"do this next thing ([a-z0-9 .-]+?) times",
    r"do all this ([a-z0-9 .-]+)",
    r"do that whole thing ([a-z0-9 .-]+?) times",
    r"do this whole thing ([a-z0-9 .-]+?) times",
    r"play [^,.]+ sound [^,.]*? ([a-z0-9 .-]+?) times",
    r"keep doing this ([a-z0-9 .-]+?) times",
    r"(?:move|turn|glide|wait|say|think|go)\b[^,.]{0,40}\b([a-z0-9 .-]+?) times",
)

# Actions found by substring.
SHOW_CUES = (
    "show up", "shows up", "show me", "show it", "be visible", "is visible", "showing", "appear",
)  # fmt: skip
HIDE_CUES = ("hide", "disappear", "invisible", "be hidden")
GO_TO_CUES = (
    "move to the spot", "moving to the spot", "move it to the spot", "move me to ", "move it to ",
    "move to x", "go to x", "go to the spot", "go to ", "random spot", "middle of the screen",
)  # fmt: skip
MOVE_CUES = ("move", "moving", "forward", "backward", "backwards")
TURN_LEFT_CUES = ("turn left", "rotate left", "counterclockwise")
TURN_RIGHT_CUES = ("turn right", "rotate right", "clockwise")
POINT_DIRECTION_CUES = (
    "point in direction", "point left", "point to the left", "point right", "point to the right",
    "face to the right", "facing to the right", "face to the left", "facing to the left",
)  # fmt: skip
POINT_STRAIGHT_CUES = ("face straight", "point straight")
SWITCH_COSTUME_CUES = (
    "change to costume", "change to ", "change the costume to", "change your costume to",
    "change its costume to", "change my costume to", "change costume to", "switch to the",
    "switch to costume", "switch costume to", "switch your costume to", "switch its costume to",
    "switch my costume to",
)  # fmt: skip
SWITCH_BACKDROP_CUES = ("change the backdrop to", "switch backdrop to")
COSTUME_OR_BACKDROP_CHANGE_CUES = (
    "change the costume to", "change your costume to", "change its costume to",
    "change my costume to", "change costume to", "change to costume", "switch costume to",
    "change the backdrop to", "change the background to", "switch backdrop to",
)  # fmt: skip
CHANGE_VARIABLE_CUES = (
    "change ", "subtract", "add ", "take away", "decrease", "reduce", "lower ",
    "move up by", "moving up by", "move down by", "moving down by", "move left by",
    "moving left by", "move right by", "moving right by", "go down by", "go up by",
)  # fmt: skip
SIMPLE_ACTION_CUES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("glide", ("glide",)),
    ("turn_left", TURN_LEFT_CUES),
    ("turn_right", TURN_RIGHT_CUES),
    ("point_direction", POINT_DIRECTION_CUES),
    ("point_towards", ("point towards",)),
    ("say", ("say ",)),
    ("think", ("think ",)),
    ("wait", ("wait",)),
    ("next_costume", ("next costume",)),
    ("next_backdrop", ("next backdrop",)),
    ("play_sound", ("play sound", "play the sound")),
    ("stop_sounds", ("stop all sounds",)),
    ("broadcast", ("broadcast", "send message", "send out the message", "send out message")),
    ("ask", ("ask ",)),
)
BROADCAST_PHRASE_CUES = ("send out the message", "send message", "broadcast ")

# Variables: phrases that name x or y without saying so.
DIRECTION_VARIABLES = (
    ("x", ("move left by", "moving left by", "move right by", "moving right by")),
    ("y", ("move up by", "moving up by", "move down by", "moving down by", "go up a little bit",
           "y position")),
)  # fmt: skip
BUILTIN_VARIABLES = ("x", "y", "size", "volume")
BAD_VARIABLE_PREFIXES = ("it ", "the sprite ", "sprite ", "sure ", "if ", "when ")
BAD_VARIABLE_WORDS = frozenset(
    ("switch", "glide", "wait", "show", "hide", "move", "turn", "point", "play", "ask", "say",
     "think", "click")
)  # fmt: skip

# Conditions.
KEY_CONDITION_CUES = ("pressed", "pressing", "hold", "holding", "let go")
RANDOM_CUES = ("random number", "random")
GREATER_CUES = ("greater than", "more than")
LESS_CUES = ("less than", "smaller than")

# Directional step phrases with the sign they give the number.
SIGNED_STEP_PATTERNS: tuple[tuple[str, int], ...] = (
    (r"(?:move|moving|go|glide)\s+back(?:ward)?s?\s+(-?\d+(?:\.\d+)?)\s+steps?", -1),
    (r"(?:move|moving|go|glide)\s+forward\s+(-?\d+(?:\.\d+)?)\s+steps?", 1),
    (r"(?:move|moving|go)\s+left\s+by\s+(-?\d+(?:\.\d+)?)", -1),
    (r"(?:move|moving|go)\s+right\s+by\s+(-?\d+(?:\.\d+)?)", 1),
    (r"(?:move|moving|go)\s+down\s+by\s+(-?\d+(?:\.\d+)?)", -1),
    (r"(?:move|moving|go)\s+up\s+by\s+(-?\d+(?:\.\d+)?)", 1),
    (r"(?:move|moving|go)\s+left\s+(-?\d+(?:\.\d+)?)\s+steps?", -1),
    (r"(?:move|moving|go)\s+right\s+(-?\d+(?:\.\d+)?)\s+steps?", 1),
    (r"(?:move|moving|go)\s+down\s+(-?\d+(?:\.\d+)?)\s+steps?", -1),
    (r"(?:move|moving|go)\s+up\s+(-?\d+(?:\.\d+)?)\s+steps?", 1),
)

# Sound names (masked out before numbers are read, on both sides).
SOUND_NAME_PATTERNS = (
    r"play sound \(([^)]+?) v\)",
    r"play (?:the )?([a-z0-9_\-]+) sound",
    r"play the sound ([a-z0-9_\-]+)",
    r"play sound ([a-z0-9_\-]+)",
)
COSTUME_TARGET_PATTERNS = (
    r"(?:change the costume to|change (?:its |your |my )?costume to|change costume to)"
    r"\s+([a-z0-9_\-]+)",
    r"(?:switch (?:its |your |my )?costume to|switch costume to)\s+([a-z0-9_\-]+)",
    r"(?:change it to|switch it to|change to|switch to)\s+([a-z0-9_\-]+)(?:\s+costume)?",
)
