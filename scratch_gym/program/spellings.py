"""The reviewed table of scratchblocks spellings that the editor's messages do not give.

The catalogue derives each block's scratchblocks pattern from the editor's English message. What
the message cannot say is kept here, small and reviewed:

* ``ICONS``: the word written for an icon in a message (the green flag, the turn arrows); icons
  not listed (the C-block arrow, extension icons) are left out of the text.
* ``STANDARD``: blocks that scratchblocks spells differently from the editor's message.
* ``ALIASES``: other spellings the parser accepts (scratchblocks aliases, Scratch 2 wording, the
  NL2Scratch corpus dialect). Slots are written as in patterns; their order is the pattern's.
* ``NL2SCRATCH``: the patterns the NL2Scratch corpus dialect writes where they differ.
* ``FIXED_DEFAULTS``: defaults that the editor picks at random (the colour of a colour slot),
  fixed so that the catalogue is reproducible.
"""

from __future__ import annotations

ICONS: dict[str, str | None] = {
    "green-flag.svg": "@greenFlag",
    "rotate-right.svg": "right",
    "rotate-left.svg": "left",
    "repeat.svg": None,
}

STANDARD: dict[str, str] = {
    # scratchblocks writes the if-else header alone; ``else`` and ``end`` follow on their own lines.
    "control_if_else": "if <> then",
}

ALIASES: dict[str, list[str]] = {
    "event_whenflagclicked": [
        "when flag clicked",
        "when green flag clicked",
        "when gf clicked",
    ],
    "motion_turnright": [
        "turn cw (15) degrees",
        "turn @turnRight (15) degrees",
        "turn \u21bb (15) degrees",
        "turn clockwise (15) degrees",
    ],
    "motion_turnleft": [
        "turn ccw (15) degrees",
        "turn @turnLeft (15) degrees",
        "turn \u21ba (15) degrees",
        "turn anticlockwise (15) degrees",
        "turn counterclockwise (15) degrees",
    ],
    "looks_setsizeto": ["set size to (100)"],
    "sound_setvolumeto": ["set volume to (100)"],
    "sound_play": ["play sound (Meow v)"],
    "looks_sayforsecs": ["say [Hello!] for (2) secs"],
    "looks_thinkforsecs": ["think [Hmm...] for (2) secs"],
    "control_if": ["if <>"],
    "control_if_else": ["if <>"],
    "operator_join": ["join [apple ] and [banana]"],
    "sensing_coloristouchingcolor": ["([#ff0000]) is touching ([#00ff00])?"],
    "sensing_touchingcolor": ["touching color ([#ff0000])?", "touching colour [#ff0000]?"],
    "pen_setPenColorToColor": ["set pen colour to [#ff0000]"],
    "pen_clear": ["clear"],
}

NL2SCRATCH: dict[str, str] = {
    "sound_play": "play sound (Meow v)",
    "operator_join": "join (apple ) and (banana)",
    "sensing_coloristouchingcolor": "(#) is touching (#)?",
}

FIXED_DEFAULTS: dict[str, str] = {
    "colour_picker": "#9966ff",
}

# How the NL2Scratch corpus writes menus that it does not write as ``(value v)`` (menu inputs)
# or ``[display v]`` (fields): "square" is ``[value]``, "round" is ``(value)``, "round_v" is
# ``(value v)``. Keyed by (block opcode, argument name).
NL2SCRATCH_SLOTS: dict[tuple[str, str], str] = {
    ("looks_switchcostumeto", "COSTUME"): "square",
    ("looks_switchbackdropto", "BACKDROP"): "square",
    ("looks_switchbackdroptoandwait", "BACKDROP"): "square",
    ("event_whenbackdropswitchesto", "BACKDROP"): "square",
    ("event_whenkeypressed", "KEY_OPTION"): "round_v",
    ("operator_mathop", "OPERATOR"): "round",
    ("data_listcontainsitem", "LIST"): "round_v",
}
