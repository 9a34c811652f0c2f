"""Unlimited one-drag tasks for training: random programs from the block catalogue, a random
intended connection and a random view. Seeded: the same seed gives the same tasks.

Kinds: a palette block stacked below a script block; a palette reporter/boolean into a slot; a
palette block into an empty C-block; a lone canvas block stacked below a script block. Regions
come from Blockly's geometry (``geometry_regions``), set when the environment loads the task.
"""

from __future__ import annotations

import random
from functools import lru_cache

from scratch_gym.editor.page import EditorPage
from scratch_gym.single_drag import editor_drag
from scratch_gym.single_drag.geometry import Geometry, connection_pair
from scratch_gym.single_drag.task import DragTask, Relation, Source, View, build_project

CATEGORIES = ("motion", "looks", "sound", "control", "sensing", "operators")
HATS = ("when flag clicked", "when this sprite clicked", "when [space v] key pressed")
C_BLOCKS = (("forever", "control_forever"), ("repeat (10)", "control_repeat"))
SLOT_KINDS = ("number", "angle", "text")
PALETTE_TOP, PALETTE_BOTTOM = 110.0, 680.0
MAX_ATTEMPTS = 20


@lru_cache(maxsize=1)
def _blocks() -> dict[str, list[tuple[str, str, str]]]:
    """(opcode, scratchblocks text, category) of catalogue blocks that parse alone, by shape."""
    from scratch_gym.program import ScratchblocksError, catalogue, parse_scripts

    out: dict[str, list[tuple[str, str, str]]] = {"stack": [], "reporter": [], "boolean": []}
    for spec in catalogue:
        if spec.source != "editor" or spec.category not in CATEGORIES or spec.shape not in out:
            continue
        if any(a.dynamic or a.kind in ("variable", "broadcast") for a in spec.args):
            continue
        text = spec.scratchblocks
        if spec.shape != "stack" and not text.startswith(("(", "<")):
            text = f"({text})" if spec.shape == "reporter" else f"<{text}>"
        try:
            parse_scripts(text)
        except (ScratchblocksError, KeyError, ValueError):
            continue
        out[spec.shape].append((spec.opcode, text, spec.category))
    return out


def _slots(opcode: str) -> list[str]:
    from scratch_gym.program import catalogue

    return [a.name for a in catalogue.block(opcode).args if a.kind in SLOT_KINDS]


class TaskGenerator:
    """``sample(page)`` makes a new task whose source and target show on the page's screen."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.count = 0

    def sample(self, page: EditorPage) -> DragTask:
        for _ in range(MAX_ATTEMPTS):
            task = self._draw()
            fitted = self._fit_view(page, task)
            if fitted is not None:
                return fitted
        raise RuntimeError(f"no visible task after {MAX_ATTEMPTS} attempts")

    # -- drawing -------------------------------------------------------------------------------
    def _draw(self) -> DragTask:
        rng = self.rng
        self.count += 1
        blocks = _blocks()
        stack = [b for b in blocks["stack"] if b[0] != "control_stop"]
        body = [rng.choice(stack) for _ in range(rng.randint(1, 3))]
        kind = rng.choice(("below", "input", "substack", "canvas"))
        lines = [rng.choice(HATS)] + [b[1] for b in body]
        scripts = []
        goal: list[Relation]
        if kind == "substack":
            text, opcode = rng.choice(C_BLOCKS)
            lines += [text, "end"]
            op, src_text, cat = rng.choice(stack)
            source = Source("flyout", opcode=op)
            goal = [Relation("input", str(len(body) + 1), "SUBSTACK")]
            where = f"into the empty '{text}' loop"
        elif kind == "input":
            with_slots = [(i, b) for i, b in enumerate(body) if _slots(b[0])]
            if not with_slots:
                return self._draw()
            i, b = rng.choice(with_slots)
            op, src_text, cat = rng.choice(blocks["reporter"] + blocks["boolean"])
            source = Source("flyout", opcode=op)
            goal = [Relation("input", str(i + 1), rng.choice(_slots(b[0])))]
            where = f"into the {goal[0].input} slot of '{b[1]}'"
        else:
            i = rng.randrange(len(body) + 1)
            op, src_text, cat = rng.choice(stack)
            goal = [Relation("below", str(i))]
            where = f"directly below '{lines[i]}'"
            if kind == "canvas":
                scripts.append(
                    {"text": src_text, "x": rng.randint(260, 420), "y": rng.randint(250, 450)}
                )
                source = Source("canvas", block="s1b1")
                cat = rng.choice(CATEGORIES)
            else:
                source = Source("flyout", opcode=op)
        scripts.insert(
            0, {"text": "\n".join(lines), "x": rng.randint(20, 120), "y": rng.randint(30, 120)}
        )
        view = View(
            category=cat,
            flyout_offset=0.0,
            scroll_x=float(rng.randint(-20, 20)),
            scroll_y=float(rng.randint(-20, 20)),
            scale=round(rng.uniform(0.5, 0.9), 3),
        )
        chain = _chain(build_project({"scripts": scripts}))
        goal = [Relation(g.rel, chain[int(g.block)], g.input) for g in goal]
        return DragTask(
            id=f"gen-{self.count:06d}",
            kind="slot_insertion" if kind in ("input", "substack") else "direct_connection",
            instruction=_instruction(source, src_text, where),
            project={"scripts": scripts},
            view=view,
            source=source,
            goal=goal,
            meta={"generated": True},
        )

    def _fit_view(self, page: EditorPage, task: DragTask) -> DragTask | None:
        """Scroll the palette so that the source shows; None when the task cannot be shown."""
        try:
            project = task.build_project()
            editor_drag.prepare(page, task, project)
            geo = Geometry.read(page)
            if task.source.origin == "flyout":
                top = geo.source_block(task)["path"][1]
                if not (PALETTE_TOP <= top <= PALETTE_BOTTOM - 60):
                    offset = top - PALETTE_TOP - self.rng.uniform(0, 300)
                    task.view = View(**{**task.view.to_args(), "flyout_offset": round(offset, 1)})
                    editor_drag.prepare(page, task, project)
                    geo = Geometry.read(page)
            left, top, w, h = geo.source_block(task)["path"]
            _, target = connection_pair(geo, task)
        except (KeyError, ValueError):
            return None
        on_palette = task.source.origin != "flyout" or (PALETTE_TOP <= top and top + h <= 715)
        on_canvas = 330 <= target[0] <= 740 and 110 <= target[1] <= 690
        return task if on_palette and on_canvas else None


def _chain(project: dict) -> list[str]:
    """Block ids of script 0's top-level stack, top to bottom."""
    blocks = project["targets"][1]["blocks"]
    out, block = [], "s0b1"
    while block:
        out.append(block)
        block = blocks[block].get("next")
    return out


def _instruction(source: Source, text: str, where: str) -> str:
    origin = "from the block palette" if source.origin == "flyout" else "on the canvas"
    return f"Drag the '{text}' block {origin} and attach it {where}."
