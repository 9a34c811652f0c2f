"""Scenes for the perception benchmark: random projects laid out on the code canvas.

A scene is a project (built with the program model from scratchblocks text) whose scripts sit in two
columns of the canvas, plus the palette category shown. Some scenes hide a short block exactly
under a wider one drawn after it (occlusion), some place a script a few units below another so that
the two look attached but are not (near miss). ``make_scene(seed, index)`` is deterministic.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from scratch_gym.program import ProjectBuilder

HAT_PITCH = 64.5  # workspace units from a hat's top to its next block's top
STACK_PITCH = 48.0  # the same for a one-row stack block
COLUMNS = (24.0, 380.0)  # x of the two script columns (the canvas shows about 690 x 920 units)
TOP = 24.0
COLUMN_BOTTOM = 880.0
CATEGORIES = ("Motion", "Looks", "Sound", "Events", "Control")

WORDS = ("Hello!", "apple", "banana", "Go team", "Nice!", "blue sky", "Ready?", "zebra",
         "maple", "orbit", "Hmm...", "pizza", "rocket", "tiger", "cloud 9", "yes")  # fmt: skip
EFFECTS = ("color", "fisheye", "whirl", "pixelate", "mosaic", "brightness", "ghost")
KEYS = ("space", "up arrow", "down arrow", "left arrow", "right arrow", "a", "b")


@dataclass(frozen=True)
class Template:
    """A stack block as scratchblocks with ``{}`` slots, and how to fill each slot."""

    opcode: str
    text: str
    slots: tuple[str | tuple[str, ...], ...] = ()


TEMPLATES: tuple[Template, ...] = (
    Template("motion_movesteps", "move ({}) steps", ("num",)),
    Template("motion_turnright", "turn right ({}) degrees", ("num",)),
    Template("motion_turnleft", "turn left ({}) degrees", ("num",)),
    Template("motion_gotoxy", "go to x: ({}) y: ({})", ("num", "num")),
    Template("motion_changexby", "change x by ({})", ("num",)),
    Template("motion_changeyby", "change y by ({})", ("num",)),
    Template("motion_setx", "set x to ({})", ("num",)),
    Template("motion_sety", "set y to ({})", ("num",)),
    Template("motion_pointindirection", "point in direction ({})", ("num",)),
    Template("motion_goto", "go to ({} v)", (("random position", "mouse-pointer"),)),
    Template("looks_sayforsecs", "say [{}] for ({}) seconds", ("word", "small")),
    Template("looks_say", "say [{}]", ("word",)),
    Template("looks_thinkforsecs", "think [{}] for ({}) seconds", ("word", "small")),
    Template("looks_think", "think [{}]", ("word",)),
    Template("looks_changesizeby", "change size by ({})", ("num",)),
    Template("looks_setsizeto", "set size to ({}) %", ("pct",)),
    Template("looks_seteffectto", "set [{} v] effect to ({})", (EFFECTS, "num")),
    Template("looks_show", "show"),
    Template("looks_hide", "hide"),
    Template("looks_nextcostume", "next costume"),
    Template("control_wait", "wait ({}) seconds", ("small",)),
    Template("sound_changevolumeby", "change volume by ({})", ("num",)),
    Template("sound_setvolumeto", "set volume to ({}) %", ("pct",)),
    Template("motion_ifonedgebounce", "if on edge, bounce"),
)
HATS = (
    Template("event_whenflagclicked", "when @greenFlag clicked"),
    Template("event_whenthisspriteclicked", "when this sprite clicked"),
    Template("event_whenkeypressed", "when [{} v] key pressed", (KEYS,)),
)
# Blocks only ever placed under a wider one (so that no visible block looks the same).
HIDDEN = (
    Template("looks_nextbackdrop", "next backdrop"),
    Template("looks_cleargraphiceffects", "clear graphic effects"),
    Template("sound_stopallsounds", "stop all sounds"),
)
MENUS = (WORDS, EFFECTS, KEYS, ("random position", "mouse-pointer"))
WIDE = ("looks_sayforsecs", "looks_thinkforsecs", "motion_gotoxy", "looks_seteffectto")
_BY_OPCODE = {t.opcode: t for t in TEMPLATES}


@dataclass
class Script:
    lines: list[str]
    x: float
    y: float
    hidden: bool = False  # drawn first, exactly under the next script's first block

    @property
    def height(self) -> float:
        hat = self.lines[0].startswith("when ")
        return (HAT_PITCH if hat else STACK_PITCH) + STACK_PITCH * (len(self.lines) - 1)


@dataclass
class Scene:
    """One screen of the benchmark: the project, the category shown, and what the layout planted."""

    index: int
    seed: int
    scripts: list[Script]
    category: str
    features: list[str] = field(default_factory=list)

    def project(self) -> dict[str, Any]:
        """project.json: the scripts (hidden ones first, so that later ones cover them)."""
        texts = ["\n".join(s.lines) for s in self.scripts]
        built = ProjectBuilder().sprite("Sprite1", scripts=texts).build()
        sprite = built["targets"][1]
        tops = [bid for bid, b in sprite["blocks"].items() if b.get("topLevel")]
        if len(tops) != len(self.scripts):
            raise ValueError(
                f"scene {self.index}: {len(tops)} scripts built, {len(self.scripts)} planned"
            )
        order: list[str] = []
        for script, top in sorted(
            zip(self.scripts, tops, strict=True), key=lambda p: not p[0].hidden
        ):
            sprite["blocks"][top]["x"], sprite["blocks"][top]["y"] = script.x, script.y
            order.extend(_script_ids(sprite["blocks"], top))
        rest = [bid for bid in sprite["blocks"] if bid not in order]
        sprite["blocks"] = {bid: sprite["blocks"][bid] for bid in order + rest}
        return built


def _script_ids(blocks: dict[str, Any], top: str) -> list[str]:
    """Ids of a script's blocks in order (next chain; these scenes have no nested stacks)."""
    ids, bid = [], top
    while bid:
        ids.append(bid)
        bid = blocks[bid].get("next")
    return ids


def fill(template: Template, rng: random.Random) -> str:
    """The template with random slot values."""
    values = []
    for slot in template.slots:
        if isinstance(slot, tuple):
            values.append(rng.choice(slot))
        elif slot == "num":
            values.append(str(rng.choice([rng.randint(-99, 360), rng.randint(1, 50)])))
        elif slot == "small":
            values.append(rng.choice(["1", "2", "3", "0.5", "1.5", "4", "10"]))
        elif slot == "pct":
            values.append(str(rng.choice([25, 50, 75, 80, 120, 150, 200])))
        else:
            values.append(rng.choice(WORDS))
    return template.text.format(*values)


def _script(rng: random.Random, n: int, hat: bool) -> list[str]:
    lines = [fill(rng.choice(HATS), rng)] if hat else []
    lines += [fill(rng.choice(TEMPLATES), rng) for _ in range(n)]
    return lines


def make_scene(seed: int, index: int) -> Scene:
    """Scene ``index`` of the benchmark with ``seed``."""
    rng = random.Random(f"perception:{seed}:{index}")
    scripts: list[Script] = []
    features: list[str] = []
    for column, x in enumerate(COLUMNS):
        y = TOP + rng.choice([0.0, 16.0, 40.0])
        hat_allowed = True
        while True:
            if column == 0 and not scripts and rng.random() < 0.45:
                # A short block under a wide one: the wide script starts without a hat.
                cover = [fill(_BY_OPCODE[rng.choice(WIDE)], rng)] + _script(
                    rng, rng.randint(0, 2), False
                )
                hidden = Script([fill(rng.choice(HIDDEN), rng)], x, y, hidden=True)
                scripts += [hidden, Script(cover, x, y)]
                features.append("occlusion")
                y += scripts[-1].height + rng.uniform(40, 90)
                continue
            hat = hat_allowed and rng.random() < 0.6
            script = Script(_script(rng, rng.randint(1, 3), hat), x, y)
            if y + script.height > COLUMN_BOTTOM:
                break
            scripts.append(script)
            y += script.height
            if rng.random() < 0.5 and "near_miss" not in features:
                gap = rng.uniform(6.0, 16.0)  # looks attached, is not
                features.append("near_miss")
                hat_allowed = False
            else:
                gap = rng.uniform(40.0, 110.0)
                hat_allowed = True
            y += gap
    return Scene(index, seed, scripts, rng.choice(CATEGORIES), features)
