"""Description-side SAC slots: lexical cues and patterns over an English description.

Choices:

* The text is lowercased, invisible characters dropped and typographic quotes made plain. The
  *trigger* is the opening clause (up to the first comma, colon, sentence end, ``then``, or a
  following ``if``/``while``/``until``) when the description opens with ``when``/``whenever``/
  ``once``/``as soon as``/``after``/``if``; the event is read there, and the
  body (everything after it) is where actions, loops and conditions are read, so "when the backdrop
  changes to X" is not read as a backdrop switch.
* **Guidance by the program** (the paper's "names guided by the program's names"): when the
  program's slots and identifiers are given, (1) a program name counts as present when its
  normalised form (or a looser form with ``-_.`` read as spaces) occurs in the description; (2) the
  program's names are masked out of the text before cues and numbers are read (names with at least
  two characters, whole words; a one-word name that opens a sentence or clause is left alone, since
  "Hide the sprite" uses it as a verb), so a costume called ``hide1`` neither adds a ``hide``
  action nor a number; masked variables become the token ``§var`` and costumes ``§costume``, which cue
  ``set_variable``/``change_variable`` and ``switch_costume``; (3) number words (``five``,
  ``twenty one``), ``half``/``quarter`` and ``a second`` count only when the program has that value
  (digits always count); (4) the event target is the program's when the description names it
  (single-character keys only as "the a key", "a key", "key a" or quoted).
* **Numbers**: standalone digits in the body (``x=-171`` gives ``-171``, ``costume5`` gives
  nothing); colour codes ("color -16711851") and key digits ("the 6 key") are masked as on the
  program side; loop counts ("7 times", "twice") count as numbers; "face right/left/up/down" gives
  90/0/180 when the program points in that direction.
* **Conditions** are read only in conditional regions: from a marker (``if``, ``until``,
  ``unless``, ``while``, ``as long as``, ``whenever``, ``till``, ``whether``) to ``then``, a
  colon or the sentence end, running through commas only while the next piece continues the
  condition ("..., and music is 2"). "If it is"/"if both are true" are not conditions. Comparison
  words decide ``equals``/``greater_than``/``less_than`` ("is" counts as equals once "is
  pressed/touching/greater ..." are removed); ``edge`` implies ``touching``.
* **Loops**: ``forever`` from "forever", "over and over", "keep ...", "continuously", ...
  ("keep"-like cues not in a sentence with "until"); ``repeat_until`` from "until" (not "wait
  until"); ``repeat`` with its count from "N times", "twice", "thrice".
* **Text in double quotes** (what a sprite says) is not read for cues, only for numbers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scratch_gym.nl2scratch.program_slots import program_identifiers
from scratch_gym.nl2scratch.slots import Slots
from scratch_gym.nl2scratch.text import clean, loose_name, normalize_name, standalone_numbers

_WORD_NUMBERS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
    "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip
_NUMBER_WORD = re.compile(
    r"\b(?:(?:" + "|".join(_WORD_NUMBERS) + r")(?:[\s-]+(?:" + "|".join(_WORD_NUMBERS) + r"))*"
    r"(?:\s+hundred(?:\s+(?:and\s+)?(?:" + "|".join(_WORD_NUMBERS) + r"))?)?|a hundred|hundred)\b"
)
_TRIGGER_START = re.compile(r"^\s*(?:when|whenever|once|as soon as|after|if)\b")
_SENTENCE_SPLIT = re.compile(r"\.(?!\d)|[;!?\n]")
_IF_PRONOUN = re.compile(
    r"\b(?:if|when) (?:it|you|they|so|that|this|not)(?: (?:is|are|does|do|did|was|has|have))?"
    r"(?=\s*(?:[,.;:]|then\b|$))|"
    r"\bif (?:both|either|all|any|one|that|this|it|they)(?: of them| conditions?)? (?:are|is|'s) true"
)
_THEN = re.compile(r"\bthen\b")
_CONTINUES = re.compile(
    r"^\s*(?:and|or|nor|but|either|neither)\b|"
    r"^\s*(?:[\w§'.?#-]+\s+){0,3}?(?:is|are|isn't|aren't|equals?|has|have)\b"
)
_REGION_MARKER = re.compile(
    r"\b(?:if|until|unless|while|as long as|whenever|till|otherwise if|else if|whether)\b"
)


def _rx(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns))


# Action cues, read on the body of the description.
ACTION_CUES: dict[str, re.Pattern[str]] = {
    "show_variable": _rx(r"\bshow\w*\b[^.;,]{0,25}\bvariable"),
    "hide_variable": _rx(r"\bhid\w*\b[^.;,]{0,25}\bvariable"),
    "show": _rx(
        r"\bshow(?:s|ing)?\b(?![^.;,]{0,25}\bvariable)",
        r"\bappear",
        r"\bvisible\b",
        r"\bunhide",
        r"\breveal",
    ),
    "hide": _rx(
        r"\bhid(?:e|es|ing|den)\b(?![^.;,]{0,25}\bvariable)",
        r"\bdisappear",
        r"\binvisible\b",
        r"\bvanish",
    ),
    "move": _rx(
        r"\b(?:move|moves|moving|walk|walks|walking|step|go|goes|going|run|runs)"
        r"(?!\s+(?:up|down|upwards?|downwards?|left|right)\b)(?:\s+\w+){0,3}\s+(?:-?\d+"
        r"(?:\.\d+)?|a|one|two|three|four|five|six|seven|eight|nine|ten|twenty|fifty|hundred|"
        r"some|a few)\s+(?:more\s+)?steps?\b(?!\s+(?:to\s+the\s+)?(?:left|right|up|down|side)\b)",
        r"\b(?:move|moves|moving|walk\w*)\s+(?:a|an|the)?\s*(?:random\s+)?(?:number|amount)"
        r"\s+of\s+steps",
        r"\b(?:move|moves|moving|walk|walks|walking|go|goes|going|step)\s+(?:\w+\s+)?"
        r"(?:forward|backwards?|ahead)\b",
        r"\bsteps? (?:forward|backwards?)\b",
    ),
    "glide": _rx(r"\bglid", r"\bslid(?:e|es|ing)\b", r"\bfloat"),
    "go_to": _rx(
        r"\b(?:go|goes|going|move|moves|moving|jump|jumps|head|heads|teleport\w*|return|"
        r"returns|come|comes|put|place|places|position)(?:\s+\w+){0,3}?\s+(?:back\s+)?"
        r"(?:to|at|on)\b(?!\s+(?:the\s+)?(?:front|back|top)\b)"
        r"(?![^.;,]{0,12}\b(?:costume|backdrop|layer)\b)",
        r"\bx\s*(?:=|:|is|of|at|position)?\s*-?\d[^.;]{0,30}\by\s*(?:=|:|is|of|at)?\s*-?\d",
        r"\brandom (?:position|spot|place|location)",
    ),
    "go_to_layer": _rx(r"\b(?:front|back)\s+layer", r"\bto the (?:front|back)\b", r"\blayers?\b"),
    "turn_right": _rx(
        r"\b(?:turn|turns|turning|rotate|rotates|rotating|spin|spins|spinning)"
        r"(?:\s+\w+){0,3}?\s+(?:to\s+the\s+)?right\b",
        r"(?<!counter)(?<!counter-)(?<!anti)(?<!anti-)\bclockwise",
        r"\b(?:turn|turns|turning|spin|spins|spinning)\s+(?:\w+\s+)?around\b"
        r"(?![^.;,]{0,25}\bleft\b)",
    ),
    "turn_left": _rx(
        r"\b(?:turn|turns|turning|rotate|rotates|rotating|spin|spins|spinning)"
        r"(?:\s+\w+){0,3}?\s+(?:to\s+the\s+)?left\b",
        r"counter-?clockwise",
        r"anti-?clockwise",
    ),
    "point_towards": _rx(
        r"\b(?:point|points|pointing|face|faces|facing|turn|turns|look|looks)"
        r"\s+(?:towards?|at)\b"
    ),
    "point_direction": _rx(
        r"\b(?:point|points|pointing|face|faces|facing)\b(?!\s+(?:towards?|at)\b)", r"\bdirection\b"
    ),
    "bounce": _rx(r"\bbounc"),
    "set_rotation_style": _rx(r"rotation style", r"\bleft[- ]right\b", r"don'?t rotate"),
    "say": _rx(r"\b(?:say|says|saying|said|shout|shouts|tell|tells|speak|speaks)\b"),
    "think": _rx(r"\b(?:think|thinks|thinking|thought)\b"),
    "wait": _rx(r"\b(?:wait|waits|waiting|pause|pauses|pausing)\b"),
    "broadcast": _rx(
        r"\bbroadcast", r"\bsend\w*\b[^.;]{0,30}\b(?:message|signal)", r"\bsend\w*\s+(?:out\s+)?§"
    ),
    "play_sound": _rx(
        r"\bplay(?:s|ing)?\b(?![^.;,]{0,10}\bnote)", r"\bstart\w*\s+(?:the\s+|a\s+)?sound"
    ),
    "play_note": _rx(r"\bnote\b", r"\bdrum\b", r"\brest for\b"),
    "stop_sounds": _rx(
        r"\bstop\w*\b[^.;,]{0,20}\b(?:sounds?|music|audio|noises?)\b", r"\b(?:silence|mute)\b"
    ),
    "ask": _rx(r"\bask", r"\bquestion\b"),
    "set_x": _rx(r"\bset\w*\s+(?:the\s+|its\s+|your\s+|my\s+)?x\b"),
    "set_y": _rx(r"\bset\w*\s+(?:the\s+|its\s+|your\s+|my\s+)?y\b"),
    "change_x": _rx(
        r"\bchange\w*\s+(?:the\s+|its\s+|your\s+)?x\b",
        r"\bx\s+(?:position\s+)?by\b",
        r"\b(?:left|right)\s+by\s+-?\d+(?:\.\d+)?\b(?!\s*(?:degrees?|°))",
        r"\bsteps?\s+(?:to\s+the\s+)?(?:left|right|side)\b",
        r"\b(?:move|moves|moving|go|goes|going|step|slide|shift)\w*\s+(?:\w+\s+)?"
        r"(?:left|right|sideways|horizontally)\b",
        r"\bhorizontal",
    ),
    "change_y": _rx(
        r"\bchange\w*\s+(?:the\s+|its\s+|your\s+)?y\b",
        r"\by\s+(?:position\s+)?by\b",
        r"\b(?:up|down|upwards?|downwards?)(?:\s+by)?\s+-?\d+(?:\.\d+)?\b",
        r"\bsteps?\s+(?:up|down|upwards?|downwards?)\b",
        r"\b(?:move|moves|moving|go|goes|going|step|slide|shift|jump)\w*\s+"
        r"(?:\w+\s+)?(?:up|down|upwards?|downwards?|higher|lower)\b",
        r"\bvertical",
        r"\bfall",
        r"\brise",
        r"\bjump",
    ),
    "set_size": _rx(r"\bsize\b[^.;,]{0,15}\bto\b", r"\bset\w*\b[^.;,]{0,15}\bsize\b", r"\b\d+\s*%"),
    "change_size": _rx(
        r"\bsize\b[^.;,]{0,15}\bby\b", r"\bgrow", r"\bshrink", r"\b(?:bigger|smaller|larger)\s+by\b"
    ),
    "set_volume": _rx(r"\bvolume\b[^.;,]{0,15}\bto\b"),
    "change_volume": _rx(r"\bvolume\b[^.;,]{0,15}\bby\b", r"\b(?:louder|quieter)\b"),
    "music": _rx(r"\btempo\b", r"\binstrument\b"),
    "set_effect": _rx(r"\beffect\b[^.;,]{0,15}\bto\b"),
    "change_effect": _rx(r"\beffect\b[^.;,]{0,15}\bby\b"),
    "clear_effects": _rx(
        r"\bclear\w*\b[^.;,]{0,20}\beffects\b", r"\bremove\w*\b[^.;,]{0,20}\beffects\b"
    ),
    "pen_setting": _rx(r"\bpen (?:colou?r|size|shade|transparency)\b"),
    "set_drag_mode": _rx(r"\bdrag"),
    "set_variable": _rx(
        r"\b(?:set|sets|setting|reset|resets|resetting|update|updates|make|makes)"
        r"\s+(?:the\s+)?§var\b",
        r"\bmake\s+§var\s+(?:to\s+)?-?\d",
        r"\b(?:set|sets|setting|reset|resets|update|updates)\b(?!\s+(?:the\s+|its\s+|"
        r"your\s+)?(?:x|y|size|volume|rotation|drag|pen|tempo|instrument|costume|"
        r"backdrop|effect)\b)[^.;]{0,50}?\bto\b",
        r"\bchange\w*\s+(?:the\s+)?§var\s+to\b",
        r"\b(?:store|save)\w*\b",
        r"§var\s+(?:equal|be|becomes?)\b",
        r"\bmake\b[^.;,]{0,40}\b(?:equal|be)\b",
    ),
    "change_variable": _rx(
        r"\bchange\w*\s+(?:the\s+)?§var\s+by\b",
        r"\b(?:increase|increases|increasing|decrease|decreases|decreasing|"
        r"raise|raises|lower|lowers|reduce|reduces|increment|decrement)\w*\s+"
        r"(?:(?:the|your|its|my|his|her|their)\s+)?§var\b",
        r"\b(?:add|adds|adding|subtract|subtracts|subtracting|take|takes|"
        r"taking|remove|removes)\b[^.;,]{0,30}\b(?:to|from|away from)\s+(?:the\s+)?§var\b",
        r"§var\s+(?:go(?:es)?|went|goes)\s+(?:up|down)",
        r"§var\s+(?:increase|decrease|grow|drop)\w*",
        r"\bchange\w*\b(?!\s+(?:the\s+|its\s+|your\s+)?(?:x|y|size|volume|"
        r"costume|backdrop|effect)\b)[^.;]{0,40}?\bby\b",
    ),
    "switch_costume": _rx(
        r"§costume",
        r"\b(?:switch|change|swap|set|turn)\w*\b[^.;,]{0,30}"
        r"\b(?:costume|look|outfit)\b(?<!next costume)",
    ),
    "next_costume": _rx(r"\bnext (?:costume|look|outfit)"),
    "switch_backdrop": _rx(
        r"\b(?:switch|change|swap|set|go|turn)\w*\b[^.;,]{0,30}§backdrop",
        r"\b(?:switch|change|swap|set)\w*\b[^.;,]{0,30}"
        r"\b(?:backdrop|background|scene)\b(?<!next backdrop)",
    ),
    "next_backdrop": _rx(r"\bnext (?:backdrop|background|scene)"),
    "create_clone": _rx(
        r"\b(?:create|make|makes|creates|creating|making)\b[^.;,]{0,20}"
        r"\b(?:clone|copy)\b",
        r"\bclone (?:of|itself|myself)",
    ),
    "delete_clone": _rx(r"\b(?:delete|remove|destroy)\w*\b[^.;,]{0,20}\bclone"),
    "stop": _rx(
        r"\bstop\w*\s+(?:all|everything|the (?:game|program|project|script)|this script|"
        r"other scripts)\b(?![^.;,]{0,15}\b(?:sounds?|music|audio|noises?)\b)",
        r"\bend (?:the|this) (?:game|program|script)",
    ),
    "pen_down": _rx(r"\bpen\s+down\b", r"\bstart\w*\s+drawing\b", r"\bput\w*\s+the\s+pen\s+down"),
    "pen_up": _rx(r"\bpen\s+up\b", r"\bstop\w*\s+drawing\b", r"\blift\w*\s+the\s+pen"),
    "erase_all": _rx(r"\berase", r"\bclear\b(?![^.;,]{0,20}\beffects)"),
    "stamp": _rx(r"\bstamp"),
    "reset_timer": _rx(r"\breset\w*\s+(?:the\s+)?timer\b"),
    "list_add": _rx(r"\badd\w*\b[^.;,]{0,30}\bto\b[^.;,]{0,20}\blist\b"),
    "list_delete": _rx(r"\bdelete\w*\b[^.;,]{0,30}\blist\b"),
    "list_insert": _rx(r"\binsert"),
    "list_replace": _rx(r"\breplace\w*\s+item"),
}

_FOREVER = _rx(
    r"\bforever\b",
    r"\bover and over\b",
    r"\bagain and again\b",
    r"\bnon-?stop\b",
    r"\bendless",
    r"\bconstantly\b",
    r"\ball the time\b",
    r"\bat all times\b",
    r"\bin a loop\b",
    r"\bloop\w*\b",
    r"\brepeatedly\b",
    r"\bnever stop",
    r"\balways\b",
    r"\bcontinu\w*",
    r"\bkeep\w*\b",
    r"\bnon stop\b",
)
_WEAK_FOREVER = re.compile(
    r"\b(?:keep\w*|continu\w*|repeatedly|loop\w*|over and over|again and again)\b"
)
_TIMES = re.compile(r"((?:-?\d+(?:\.\d+)?)|(?:[a-z]+(?:[\s-][a-z]+)?))\s+(?:more\s+)?times\b")
_UNTIL = re.compile(r"\b(?:until|till|unless)\b")
_WAIT_BEFORE = re.compile(r"\b(?:wait|waits|waiting|pause|pauses)\s+$")

_CONDITION_CUES: dict[str, re.Pattern[str]] = {
    "touching": _rx(
        r"\btouch\w*",
        r"\bbump\w*",
        r"\bcollid\w*",
        r"\bhits?\b(?!\s+(?:the\s+)?\w+\s+key)",
        r"\bhitting\b",
        r"\bcontact\b",
        r"\bcomes? into contact",
    ),
    "edge": _rx(r"\bedges?\b"),
    "key_press": _rx(r"\bkeys?\b", r"\barrow\b", r"\bspace ?bar\b"),
    "mouse_down": _rx(
        r"\bmouse\b[^.;,]{0,25}\b(?:down|pressed|clicked|click|button|held)\b",
        r"\b(?:click|clicks|clicking|press|pressing)\w*\b[^.;,]{0,15}\bmouse\b",
        r"\bmouse(?:-|\s)?(?:click|down|button)",
    ),
    "answer": _rx(r"\banswer\w*\b", r"\brepl(?:y|ies)\b", r"\bresponse\b"),
    "greater_than": _rx(
        r"\b(?:greater|more|bigger|larger|higher|longer)\s+than\b",
        r"\bover\b",
        r"\babove\b",
        r"\bexceed\w*",
        r"\bat least\b",
        r"\bpast\b",
        r">",
        r"\bor (?:more|greater|higher|bigger|larger|above)\b",
    ),
    "less_than": _rx(
        r"\b(?:less|fewer|smaller|lower|shorter)\s+than\b",
        r"\bbelow\b",
        r"\bunder\b",
        r"\bat most\b",
        r"<",
        r"\bor (?:less|fewer|lower|smaller|below)\b",
    ),
}
_NOT_EQUALS = re.compile(
    r"\b(?:is|are|isn't|aren't|it's|was)\s+(?:not\s+|still\s+|no\s+longer\s+|currently\s+|being\s+)*"
    r"(?:greater|more|less|fewer|bigger|larger|smaller|higher|lower|over|above|under|below|"
    r"touching|pressed|down|clicked|held|hit|at least|at most|up|released|being|in contact|"
    r"near|close|on)\b"
)
_EQUALS = _rx(
    r"\b(?:is|are|equals?|equal to|isn't|it's|becomes?|reaches|was|same as|matches|"
    r"exactly)\b",
    r"[=]",
    r"\b(?:pick|picks|picked|get|gets|got|roll|rolls|rolled|lands?\s+on)\b[^,;.]{0,25}"
    r"\bnumber\s+-?\d",
)
_QUOTED = re.compile(r'"[^"§]*"')
_QUOTED_NAME = re.compile(r'"\s*(§\w*)\s*([.,!?]?)\s*"')
_ASK_WAIT = re.compile(
    r"(\bask\w*\b[^.;]*?)\band\s+wait(?:s|ing)?"
    r"(?:\s+for\s+(?:an?|the|my|your|their)\s+(?:answer|response|reply))?"
)
_GLIDE = re.compile(r"\bglid|\bslid(?:e|es|ing)\b|\bfloat")
_FACING = r"\b(?:face|faces|facing|point|points|pointing|direction|look|looks|looking|head|heads)\b[^.;,]{0,25}"
_DIRECTION_WORDS = {
    "90": re.compile(_FACING + r"\b(?:right|left)\b"),
    "0": re.compile(_FACING + r"\b(?:up|upwards?|upward|north)\b"),
    "180": re.compile(_FACING + r"\b(?:down|downwards?|south)\b"),
}
_KEY_NUMBER = re.compile(r"(?<![\w.])\d+(?=\s+(?:arrow\s+)?key\b)")
_COLOR_CODE = re.compile(r"colou?r\s*(?:code\s*)?[:#(]?\s*-?\d+")


def _norm_text(text: str) -> str:
    return re.sub(r"\s+", " ", clean(text).lower()).strip()


def _contains_name(text: str, loose_text: str, name: str) -> bool:
    """Whether a (normalised) program name occurs in the description."""
    if not name:
        return False
    pattern = r"(?<![\w])" + re.escape(name) + r"(?![\w])"
    if re.search(pattern, text):
        return True
    loose = loose_name(name)
    return bool(loose) and bool(
        re.search(r"(?<![\w])" + re.escape(loose) + r"(?![\w])", loose_text)
    )


def _key_named(text: str, key: str) -> bool:
    """Whether the key ``key`` is named in ``text`` ("the a key", "space bar", "left arrow")."""
    variants = {key}
    if key.endswith(" arrow"):
        variants.add(key[: -len(" arrow")])
    if key == "space":
        variants |= {"spacebar", "space bar"}
    for variant in variants:
        v = re.escape(variant)
        if len(variant) > 1 and re.search(rf"(?<![\w]){v}(?![\w])", text):
            return True
        if re.search(
            rf"['\"]{v}['\"]|(?<![\w]){v}(?:\s+arrow)?\s+(?:key|button)|\bkey\s+['\"]?{v}(?![\w])|"
            rf"\bpress(?:es|ed|ing)?\s+(?:the\s+)?{v}(?![\w])",
            text,
        ):
            return True
    return False


def _trigger_and_body(text: str) -> tuple[str, str]:
    start = _TRIGGER_START.match(text)
    if not start:
        return "", text
    end = re.compile(r",|:(?=\s)|\.(?!\d)|[;!?]|\bthen\b|\b(?:and\s+)?(?:if|while|until)\b")
    match = end.search(text, start.end())
    if not match:
        return text, ""
    return text[: match.start()], text[match.start() :]


def _event_type(trigger: str) -> str | None:
    if not trigger:
        return None
    if re.search(
        r"\bflag\b|\b(?:game|program|project)\s+(?:starts|begins|is started|runs)", trigger
    ):
        return "green_flag"
    if re.search(r"\bclone\b", trigger):
        return "clone_start"
    if re.search(r"\b(?:backdrop|background|scene)\b", trigger) and re.search(
        r"\b(?:chang|switch|swap|turn|becom)\w*", trigger
    ):
        return "backdrop_switch"
    if re.search(r"\b(?:receive\w*|message|broadcast\w*|hears?|signal|gets?)\b", trigger):
        return "broadcast_receive"
    if re.search(r"\bkeys?\b|\bpress\w*|\barrow\b|\bspace ?bar\b|\bhit\w*\b", trigger):
        return "key_press"
    if re.search(r"\b(?:click|clicks|clicked|clicking|tap|taps|tapped)\b", trigger):
        return "stage_clicked" if re.search(r"\bstage\b", trigger) else "sprite_clicked"
    return None


def _extracted_target(trigger: str, event_type: str | None) -> str | None:
    patterns = {
        "key_press": r"['\"]?(\w+(?: arrow)?)['\"]?\s+key\b",
        "backdrop_switch": r"(?:chang|switch)\w*\s+to\s+(?:the\s+)?(?:backdrop\s+)?['\"]?([^,'\"]+)",
        "broadcast_receive": r"(?:receive\w*|message|broadcast\w*|hears?)\s+(?:the\s+)?"
        r"(?:message\s+)?['\"]?([^,'\"]+)",
    }
    if event_type not in patterns:
        return None
    match = re.search(patterns[event_type], trigger)
    if not match:
        return None
    target = normalize_name(re.sub(r"^(?:the|you|press|pressing|hit)\s+", "", match.group(1)))
    return target or None


_CLAUSE_START = re.compile(r"(?:^|[.,;:!?]|\bthen|\band|\bthe green flag is clicked)\s*$")
_BUILTIN_MENU = {
    "edge", "mouse-pointer", "mouse pointer", "mouse", "random position", "myself", "stage",
    "front", "back", "all", "this script", "other scripts in sprite", "space", "any",
    "up arrow", "down arrow", "left arrow", "right arrow", "color", "ghost", "size",
}  # fmt: skip


def _mask(text: str, names: Iterable[str], token: str) -> str:
    """``text`` with the program's names replaced by ``token``.

    An occurrence that opens a sentence or clause ("Hide the sprite", ", and move 3 steps") is
    left alone when the name is a single word, since there it is read as a verb.
    """
    keep = {n for n in names if len(n) >= 2 and not n.startswith("_") and n not in _BUILTIN_MENU}

    def replace(match: re.Match[str]) -> str:
        before = text_ref[0][: match.start()]
        if " " not in match.group(0) and _CLAUSE_START.search(before):
            return match.group(0)
        return f" {token} "

    for name in sorted(keep, key=len, reverse=True):
        variants = {name, loose_name(name)}
        for variant in sorted(v for v in variants if v and not re.fullmatch(r"[\d\s]+", v)):
            text_ref = [text]
            pattern = r"(?<![\w.])" + re.escape(variant) + r"(?![\w]|\.\d)"
            text = re.sub(pattern, replace, text)
        if re.fullmatch(r"-?[\d.]+", name):
            text = re.sub(r"(?<![\w.])" + re.escape(name) + r"(?![\w]|\.\d)", f" {token} ", text)
    return text


def _regions(body: str) -> list[str]:
    """Conditional regions: from a condition marker to ``then``, a colon or the sentence end.

    A region runs on through comma-separated pieces that continue the condition (they start with
    and/or/nor/but, or state a comparison such as "music is 5") and stops at the first other piece.
    """
    regions: list[str] = []
    for sentence in _SENTENCE_SPLIT.split(_IF_PRONOUN.sub(" ", body)):
        for part in sentence.split(":"):
            pieces = part.split(",")
            i = 0
            while i < len(pieces):
                match = _REGION_MARKER.search(pieces[i])
                if not match:
                    i += 1
                    continue
                region = [pieces[i][match.start() :]]
                i += 1
                while (
                    not _THEN.search(region[-1])
                    and i < len(pieces)
                    and _CONTINUES.search(pieces[i])
                ):
                    region.append(pieces[i])
                    i += 1
                regions.append(_THEN.split(",".join(region))[0])
    return regions


def _word_numbers(text: str) -> set[str]:
    values: set[str] = set()
    for match in _NUMBER_WORD.finditer(text):
        total = 0
        current = 0
        for word in re.split(r"[\s-]+", match.group(0)):
            if word == "hundred":
                current = max(current, 1) * 100
            elif word == "a" or word == "and":
                continue
            else:
                current += _WORD_NUMBERS[word]
        total += current
        values.add(str(total))
    return values


def _loop_count(fragment: str) -> str | None:
    nums = standalone_numbers(fragment)
    if nums:
        return nums[-1]
    words = _word_numbers(fragment)
    return min(words, key=len) if len(words) == 1 else (sorted(words)[0] if words else None)


def extract_description_slots(
    description: str,
    guide: Slots | None = None,
    identifiers: Iterable[str] = (),
) -> Slots:
    """The SAC slots of a description; ``guide`` / ``identifiers`` come from the program."""
    text = _norm_text(description)
    loose_text = re.sub(r"\s+", " ", re.sub(r"[-_./]+", " ", text))
    guide = guide or Slots()
    idents = {normalize_name(i) for i in identifiers} | set(guide.variable_names)
    idents |= guide.costume_names | guide.backdrop_names | guide.broadcast_names

    trigger, body = _trigger_and_body(text)
    event_type = _event_type(trigger)
    event_target: str | None = None
    if guide.event_target:
        found = (
            _key_named(trigger or text, guide.event_target)
            if guide.event_type == "key_press"
            else _contains_name(text, loose_text, guide.event_target)
        )
        if found:
            event_target = guide.event_target
    if event_target is None:
        event_target = _extracted_target(trigger, event_type)

    names = {
        slot: frozenset(n for n in guide.get(slot) if _contains_name(text, loose_text, n))
        for slot in ("variable_names", "costume_names", "backdrop_names", "broadcast_names")
    }

    masked = _KEY_NUMBER.sub(" ", _COLOR_CODE.sub(" colour ", body))
    masked = _mask(masked, guide.variable_names, "§var")
    masked = _mask(masked, guide.costume_names, "§costume")
    masked = _mask(masked, guide.backdrop_names, "§backdrop")
    masked = _mask(masked, idents, "§")

    masked = _QUOTED_NAME.sub(r" \1\2 ", masked)
    numbers_text = masked
    masked = _ASK_WAIT.sub(r"\1", _QUOTED.sub(" §text ", masked))
    actions = {label for label, cue in ACTION_CUES.items() if cue.search(masked)}
    # "glide ... to x: 1, y: 2" is not a go-to: read go-to only in clauses without a glide.
    clauses = [c for c in re.split(r"[,;:]|(?<!\d)\.(?!\d)", masked) if not _GLIDE.search(c)]
    if not any(ACTION_CUES["go_to"].search(c) for c in clauses):
        actions.discard("go_to")

    loops: set[str] = set()
    counts: set[str] = set()
    for sentence in _SENTENCE_SPLIT.split(masked):
        sentence_until = bool(_UNTIL.search(sentence))
        for clause in re.split(r"[,:]", sentence):
            until = _UNTIL.search(clause)
            if until and not _WAIT_BEFORE.search(clause[: until.start()]):
                loops.add("repeat_until")
            # "keep ... until" is a repeat-until, not a forever: weak cues need no "until" nearby.
            if any(
                not (sentence_until and _WEAK_FOREVER.fullmatch(m.group(0)))
                for m in _FOREVER.finditer(clause)
            ):
                loops.add("forever")
            for times in _TIMES.finditer(clause):
                count = _loop_count(times.group(1))
                if count is not None:
                    loops.add("repeat")
                    counts.add(count)
            if re.search(r"\brepeat\w*\b[^.;]*\btimes\b", clause):
                loops.add("repeat")
            for word, count in (("twice", "2"), ("thrice", "3")):
                if re.search(rf"\b{word}\b", clause):
                    loops.add("repeat")
                    counts.add(count)

    conditions: set[str] = set()
    for region in _regions(masked):
        for label, cue in _CONDITION_CUES.items():
            if cue.search(region):
                conditions.add(label)
        if _EQUALS.search(_NOT_EQUALS.sub(" ", region)):
            conditions.add("equals")
    if "edge" in conditions:
        conditions.add("touching")

    numbers = set(standalone_numbers(numbers_text))
    program_numbers = set(guide.numeric_values)
    numbers |= _word_numbers(masked) & program_numbers
    if "1" in program_numbers and re.search(r"\ba (?:second|step|degree)\b", masked):
        numbers.add("1")
    if "0.5" in program_numbers and re.search(r"\bhalf\b", masked):
        numbers.add("0.5")
    if "0.25" in program_numbers and re.search(r"\bquarter\b", masked):
        numbers.add("0.25")
    numbers |= {c for c in counts}
    for value, cue in _DIRECTION_WORDS.items():
        if ({value, f"-{value}"} & program_numbers) and cue.search(masked):
            numbers.add(value)

    return Slots(
        event_type=event_type,
        event_target=event_target,
        action_types=frozenset(actions),
        loop_types=frozenset(loops),
        loop_counts=frozenset(counts),
        condition_types=frozenset(conditions),
        numeric_values=frozenset(numbers),
        **names,
    )


@dataclass(frozen=True)
class RobustDescriptionSlots:
    """The robust protocol's description-side extractor
    (:class:`~scratch_gym.nl2scratch.interfaces.DescriptionSlotExtractor`), guided by the
    program's slots and identifiers."""

    def slots(self, description: str, program: Slots, program_lines: Sequence[str]) -> Slots:
        return extract_description_slots(description, program, program_identifiers(program_lines))
