"""Scenes as people build them: 1-9 scripts of up to about 50 blocks, C-blocks nested in each
other, reporters in slots, variables and lists with real names, non-default values, loose blocks
lying about, in a sprite or the Stage of a project with several sprites.

Names and words come from everyday English (the lists below), never from a benchmark's files.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from scratch_gym.program.lexer import Bracket
from scratch_gym.single_drag.generation.blocks import (
    CLOSE,
    BlockKind,
    named,
    pick,
    random_number,
    script_text,
)

VARIABLE_NAMES = (
    "score", "lives", "speed", "count", "total", "level", "timer", "health", "coins", "points",
    "answer", "guess", "distance", "energy", "counter", "bonus", "height", "result", "index",
    "player name", "best time", "sum", "age", "temperature", "step size", "fuel", "ammo",
    "gravity", "width", "number", "x speed", "y speed", "clicks", "money", "stars",
)  # fmt: skip
LIST_NAMES = (
    "fruits", "names", "scores", "items", "colors", "words", "numbers", "inventory", "moves",
    "answers", "cards", "guests", "high scores", "notes", "questions", "animals",
)  # fmt: skip
SPRITE_NAMES = (
    "Ball", "Dog", "Player", "Rocket", "Star", "Apple", "Bat", "Paddle", "Fish", "Robot",
    "Button", "Cloud", "Hero", "Enemy", "Arrow", "Car",
)  # fmt: skip
MESSAGES = ("start game", "game over", "next level", "jump", "reset", "win", "shoot", "go")
WORDS = (
    "hello", "hi there", "yes", "no", "apple", "well done", "banana", "red", "go", "done",
    "ready", "try again", "blue", "cat", "you win", "ouch", "hmm", "welcome",
)  # fmt: skip
AREA = (1300.0, 1100.0)  # workspace units the scripts are spread over
MAX_BLOCKS = 50


@dataclass
class Scene:
    """A project to drag in, as the task's ``project`` spec, and where its scripts lie."""

    target: str = "Sprite1"
    sprites: list[str] = field(default_factory=list)
    variables: list[str] = field(default_factory=list)
    lists: list[str] = field(default_factory=list)
    scripts: list[dict[str, Any]] = field(default_factory=list)
    extensions: list[str] = field(default_factory=list)

    @property
    def stage(self) -> bool:
        return self.target == "Stage"

    def palette_names(self) -> tuple[list[str], list[str]]:
        """The variables and lists in the palette's order (sorted as Scratch sorts them)."""
        return sorted(self.variables, key=str.lower), sorted(self.lists, key=str.lower)

    def spec(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "scripts": [{k: v for k, v in s.items() if k != "box"} for s in self.scripts]
        }
        for key in ("variables", "lists", "sprites", "extensions"):
            if getattr(self, key):
                out[key] = list(getattr(self, key))
        if self.target != "Sprite1":
            out["target"] = self.target
        return out

    def add_script(self, rng: random.Random, lines: list[str]) -> int:
        """Place a script where it overlaps no other (by estimated size); its index."""
        w, h = _size(lines)
        for attempt in range(200):
            grow = 1.0 + attempt / 50
            x = rng.uniform(0, AREA[0] * grow)
            y = rng.uniform(0, AREA[1] * grow)
            if all(not _overlap((x, y, w, h), s["box"]) for s in self.scripts):
                break
        self.scripts.append({"text": "\n".join(lines), "x": round(x), "y": round(y)})
        self.scripts[-1]["box"] = (x, y, w, h)
        return len(self.scripts) - 1


def _size(lines: list[str]) -> tuple[float, float]:
    """A generous estimate of a script's size in workspace units."""
    height = 40.0 + sum(34.0 if line in ("end", "else") else 56.0 for line in lines)
    width = 80.0 + 9.0 * max(len(line) for line in lines)
    return width, height


def _overlap(a: tuple[float, ...], b: tuple[float, ...], margin: float = 50.0) -> bool:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return not (
        ax + aw + margin < bx or bx + bw + margin < ax or ay + ah + margin < by or by + bh < ay
    )


class SceneWriter:
    """Writes blocks with the scene's names and random values, and whole scripts."""

    def __init__(self, rng: random.Random, scene: Scene) -> None:
        self.rng = rng
        self.scene = scene
        self.blocks = 0

    def block(self, kind: BlockKind, depth: int = 0) -> str:
        """One block's own text: random values, sometimes a reporter nested in a slot."""
        self.blocks += 1
        text = kind.text(lambda k, b: self._slot(k, b, depth))
        variable = self.rng.choice(self.scene.variables or ["my variable"])
        return named(text, variable, self.rng.choice(self.scene.lists or ["my list"]))

    def fresh(self, kind: BlockKind) -> str:
        """One block as the palette shows it: its default values, the palette's first variable
        and list (its menus of messages as ``block`` writes them)."""
        self.blocks += 1

        def fill(slot: str, bracket: Bracket) -> str:
            if slot in ("number", "angle", "text", "boolean"):
                return f"{bracket.kind}{bracket.raw}{CLOSE[bracket.kind]}"
            return self._slot(slot, bracket, depth=2)

        variables, lists = self.scene.palette_names()
        return named(kind.text(fill), (variables or ["my variable"])[0], (lists or ["my list"])[0])

    def _slot(self, kind: str, bracket: Bracket, depth: int) -> str:
        rng = self.rng
        default = f"{bracket.kind}{bracket.raw}{CLOSE[bracket.kind]}"
        nest = depth < 2 and self.blocks < MAX_BLOCKS
        if kind == "boolean":
            return (
                self.block(self._pick("boolean"), depth + 1)
                if nest and rng.random() < 0.5
                else "<>"
            )
        if kind in ("number", "angle", "text"):
            if nest and rng.random() < 0.18:
                return self.block(
                    self._pick("reporter" if rng.random() < 0.8 else "variable"), depth + 1
                )
            if rng.random() < 0.3:
                return default
            if kind == "text" and rng.random() < 0.6:
                return f"[{rng.choice(WORDS)}]"
            return f"({random_number(rng)})"
        if kind == "broadcast" or (kind == "variable" and bracket.raw.startswith("message")):
            return bracket.kind + rng.choice(MESSAGES) + " v" + CLOSE[bracket.kind]
        return default

    def _pick(self, shape: str) -> BlockKind:
        return pick(self.rng, shape, self.scene.stage)

    def statements(self, n: int, depth: int = 0) -> list[str]:
        """``n`` statements (C-blocks hold their own, nested up to depth 2)."""
        lines: list[str] = []
        for i in range(n):
            last = i == n - 1
            r = self.rng.random()
            if depth < 2 and r < 0.28 and self.blocks < MAX_BLOCKS:
                kind = self._pick("c")
                while kind.opcode == "control_forever" and not last:
                    kind = self._pick("c")
                own = self.block(kind, depth)
                bodies = [
                    self.statements(self.rng.choice((0, 1, 1, 2, 3)), depth + 1)
                    for _ in kind.spec.statements
                ]
                lines.extend(script_text(kind, own, bodies).split("\n"))
            elif last and r > 0.94:
                lines.append(self.block(self._pick("cap"), depth))
            else:
                lines.append(self.block(self._pick("stack"), depth))
        return lines

    def script(self) -> list[str]:
        """A script as people leave them: mostly a hat and a body, sometimes loose pieces."""
        r = self.rng.random()
        if r < 0.12:
            return [self.block(self._pick(self.rng.choice(("reporter", "boolean"))))]
        if r < 0.25:
            return self.statements(self.rng.randint(1, 3))
        hat = [self.block(self._pick("hat"))]
        return hat + self.statements(self.rng.choice((0, 1, 2, 2, 3, 3, 4, 5, 6)))


def draw_scene(rng: random.Random) -> Scene:
    """A random scene (its scripts placed apart; the edited target, names, extensions)."""
    sprites = rng.sample(SPRITE_NAMES, rng.choice((0, 0, 1, 1, 2, 3)))
    target = rng.choice(["Sprite1"] * 5 + sprites + ["Stage"] * 2)
    scene = Scene(
        target=target,
        sprites=sprites,
        variables=sorted(rng.sample(VARIABLE_NAMES, rng.randint(1, 4))),
        lists=sorted(rng.sample(LIST_NAMES, rng.randint(1, 2))),
    )
    writer = SceneWriter(rng, scene)
    for _ in range(rng.choice((1, 1, 2, 2, 3, 3, 4, 5, 6, 7, 8, 9))):
        if writer.blocks >= MAX_BLOCKS - 4:
            break
        scene.add_script(rng, writer.script())
    return scene
