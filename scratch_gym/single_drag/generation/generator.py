"""Unlimited one-drag tasks for training, covering the single drags of Scratch 3.

A task is a random scene (``scenes``), a relation kind drawn evenly from ``RELATION_KINDS``, a
target place of that kind in the scene, a compatible block to drag (from the palette, a lone
canvas block or a canvas stack grabbed by its top), a random view (stage size, target sprite or
Stage, zoom 0.5-1.0, pan) and an instruction (``grammar``). ``sample(page)`` keeps a task only
when the editor shows it: the scripts do not overlap, the source and the target lie in view,
and Blockly's geometry gives non-empty feasible regions. It then words the instruction for that
view: an ordinal, a side or "lone" singles a block out among the equally named blocks in view,
as a reader of the screen counts them (``meta["in_view"]`` lists them). Seeded: the same seed
gives the same tasks (of this ``VERSION`` of the generator: pools record it).

A canvas source is sometimes a block as it comes out of the palette (its default values, the
palette's first variable and list), and the palette then often shows the source's category, as
it does right after a user drags a block out: the palette's twin and the canvas block look the
same, and only the instruction's words ("the lone ... on the canvas", "a new ... from the
palette") tell them apart. Wherever the twin shows, the instruction says which one is meant.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from scratch_gym.editor.page import EditorPage
from scratch_gym.single_drag import editor_drag
from scratch_gym.single_drag.feasible.geometric import geometric_regions
from scratch_gym.single_drag.feasible.geometry import Geometry, connection_pair
from scratch_gym.single_drag.generation import grammar
from scratch_gym.single_drag.generation.blocks import (
    LITERAL_SLOTS,
    BlockKind,
    named,
    pick,
    script_text,
)
from scratch_gym.single_drag.generation.scenes import Scene, SceneWriter, draw_scene
from scratch_gym.single_drag.generation.versions import VERSION, VERSIONS
from scratch_gym.single_drag.tasks.kinds import RELATION_KINDS, target_blocks
from scratch_gym.single_drag.tasks.task import DragTask, Relation, Source, View, build_project

PALETTE_TOP, PALETTE_BOTTOM = 110.0, 715.0
MAX_ATTEMPTS = 40
MARGIN = (24.0, 24.0, 80.0, 70.0)  # left, top, right, bottom px kept clear inside the code area
SOURCE_SHAPES = {
    "below": ("stack", "stack", "stack", "c", "cap"),
    "insert": ("stack", "stack", "c"),
    "above": ("stack", "stack", "hat"),
    "c_mouth": ("stack", "stack", "c"),
    "else": ("stack", "stack", "c"),
    "value_slot": ("reporter", "reporter", "variable"),
    "condition": ("boolean",),
}
DIRECT = ("below", "insert", "above")
FRESH_SHARE = 0.35  # canvas sources with the palette's default values
TWIN_SHARE = 0.5  # canvas sources shown with the palette open at their own category
_CATEGORIES = ("motion", "looks", "sound", "events", "control", "sensing", "operators", "variables")


@dataclass(frozen=True)
class Spot:
    """A place in the scene a block can be dragged to."""

    kind: str
    block: str
    input: str | None = None
    empty: bool = True  # the mouth or the place below holds nothing yet

    def relation(self) -> Relation:
        if self.kind in ("below", "insert"):
            return Relation("below", self.block)
        if self.kind == "above":
            return Relation("above", self.block)
        return Relation("input", self.block, self.input)


def spots(blocks: dict[str, Any]) -> list[Spot]:
    """Every place of the target's blocks, by kind (see ``kinds``)."""
    from scratch_gym.program import catalogue

    out: list[Spot] = []
    for bid, b in blocks.items():
        if not isinstance(b, dict) or b.get("shadow"):
            continue
        spec = catalogue.get(b["opcode"])
        if spec is None or spec.category == "myblocks":
            continue
        kind = BlockKind(spec)
        if kind.takes_next:
            out.append(Spot("insert" if b.get("next") else "below", bid, empty=not b.get("next")))
        if b.get("topLevel") and kind.shape in ("stack", "c", "cap"):
            out.append(Spot("above", bid))
        inputs = b.get("inputs", {})
        for i, name in enumerate(spec.statements):
            filled = bool(inputs.get(name) and inputs[name][1])
            out.append(Spot("else" if i else "c_mouth", bid, name, empty=not filled))
        for arg in spec.args:
            ref = inputs.get(arg.name)
            if arg.kind in LITERAL_SLOTS and ref and ref[0] == 1:
                out.append(Spot("value_slot", bid, arg.name))
            elif arg.kind == "boolean" and not (ref and ref[1]):
                out.append(Spot("condition", bid, arg.name))
    return out


class TaskGenerator:
    """``sample(page)`` makes a new task that the page shows (see the module docstring)."""

    def __init__(self, seed: int = 0, version: int = VERSION) -> None:
        if version not in VERSIONS:
            raise ValueError(f"generator version must be one of {VERSIONS}, got {version!r}")
        self.rng = random.Random(seed)
        self.version = version
        self.count = 0

    def sample(self, page: EditorPage, kind: str | None = None) -> DragTask:
        """A task the page shows; ``kind``: only this relation kind (default: any)."""
        for _ in range(MAX_ATTEMPTS):
            task = self.draw(kind)
            if task is None:
                continue
            shown = self._fit_view(page, task)
            if shown is not None:
                if self.version >= 6:
                    shown.meta = {**shown.meta, "in_view": _blocks_in_view(page)}
                    # counted over the view
                    shown.instruction = reinstruct(shown, self.rng, self.version)
                return shown
        raise RuntimeError(f"no task the editor shows after {MAX_ATTEMPTS} attempts")

    # -- drawing ------------------------------------------------------------------------------------
    def draw(self, kind: str | None = None) -> DragTask | None:
        """A task (view not yet fitted), or None when the scene has no place of the kind."""
        rng = self.rng
        self.count += 1
        scene = draw_scene(rng)
        kind = kind or rng.choice(RELATION_KINDS)
        blocks = target_blocks(build_project(scene.spec()), scene.target)
        places = [s for s in spots(blocks) if s.kind == kind]
        if not places:
            return None
        spot = rng.choice(places)
        writer = SceneWriter(rng, scene)
        drawn = _draw_source(rng, spot, scene, writer)
        if drawn is None:
            return None
        source, origin, kind_of_source = drawn
        project_spec = scene.spec()
        project = build_project(project_spec)
        blocks = target_blocks(project, scene.target)
        if origin == "palette" or rng.random() < TWIN_SHARE:
            category = kind_of_source.category
        else:
            category = rng.choice(_CATEGORIES)
        view = View(
            category=category,
            scale=round(rng.uniform(0.5, 1.0), 3),
            target=None if scene.target == "Sprite1" else scene.target,
            stage_size=rng.choice(("large", "small")),
            flyout_anchor=(
                (source.opcode or "", source.nth, round(rng.uniform(170, 620), 1))
                if origin == "palette"
                else None
            ),
        )
        text = _instruction(
            rng, spot, origin, source, kind_of_source, scene, blocks, category,
            version=self.version,
        )  # fmt: skip
        return DragTask(
            id=f"gen-{self.count:06d}",
            kind="direct_connection" if spot.kind in DIRECT else "slot_insertion",
            instruction=text,
            project=project_spec,
            view=view,
            source=source,
            goal=[spot.relation()],
            meta={"generated": True},
        )

    def _fit_view(self, page: EditorPage, task: DragTask) -> DragTask | None:
        """Pan so that the source and the target show; None when the editor cannot show the task
        (scripts overlap, they do not fit in view, or a feasible region is empty)."""
        try:
            project = task.build_project()
            shown = editor_drag.prepare(page, task, project)
            geo = Geometry.read(page)
            if _overlapping(geo):
                return None
            need = _points_to_show(geo, task)
            left, top, right, bottom = _inner(geo)
            xs, ys = [p[0] for p in need], [p[1] for p in need]
            span_x, span_y = max(xs) - min(xs), max(ys) - min(ys)
            if span_x > right - left or span_y > bottom - top:
                return None
            dx = self.rng.uniform(left, right - span_x) - min(xs)
            dy = self.rng.uniform(top, bottom - span_y) - min(ys)
            ox, oy = shown["origin"]
            translate = (round(ox + dx, 1), round(oy + dy, 1))
            task.view = replace(task.view, translate=translate)
            editor_drag.show_view(page, task, stop_vm=True)  # the loaded project, panned
            page.bridge.single_drag_arm()
            geo = Geometry.read(page)
            need = _points_to_show(geo, task)
            if not all(left - 2 <= x <= right + 2 and top - 2 <= y <= bottom + 2 for x, y in need):
                return None
            if task.source.origin == "flyout":
                _, top_px, _, height = geo.source_block(task)["path"]
                if not (PALETTE_TOP <= top_px and top_px + height <= PALETTE_BOTTOM):
                    return None
            regions = geometric_regions(page, task)
        except (KeyError, ValueError, RuntimeError):
            return None
        if len(regions.start) == 0 or len(regions.end) == 0:
            return None
        task.regions = regions
        return task


def _draw_source(
    rng: random.Random, spot: Spot, scene: Scene, writer: SceneWriter
) -> tuple[Source, str, BlockKind] | None:
    """The block to drag for ``spot``: (source, origin, its block kind); a canvas source is
    added to the scene as a script of its own."""
    shapes = SOURCE_SHAPES[spot.kind]
    shape = rng.choice(shapes)
    if shape == "cap" and not spot.empty:
        shape = "stack"
    r = rng.random()
    origin = "palette" if shape == "variable" or r < 0.5 else "canvas_block"
    if origin == "canvas_block" and spot.kind not in ("value_slot", "condition") and r > 0.78:
        origin = "canvas_stack"
    kind = pick(rng, shape, scene.stage)
    if origin == "palette":
        if kind.category == "pen":
            scene.extensions = ["pen"]
        return (
            Source("flyout", opcode=kind.opcode, nth=_palette_nth(rng, kind, scene)),
            origin,
            kind,
        )
    own = writer.fresh(kind) if rng.random() < FRESH_SHARE else writer.block(kind)
    if kind.shape == "c":
        # A forever (no next) goes where blocks already are only by wrapping them in its mouth,
        # which scratch-blocks allows only while the mouth is empty.
        sizes = (0,) if not kind.takes_next and not spot.empty else (0, 1, 2)
        body = [writer.statements(rng.choice(sizes)) for _ in kind.spec.statements]
        lines = script_text(kind, own, body).split("\n")
    else:
        lines = [own]
    if origin == "canvas_stack":
        if kind.shape == "c" or not kind.takes_next:
            return None  # a C-block's mouth would take the blocks below it; a cap takes none
        tail = [writer.block(pick(rng, "stack", scene.stage)) for _ in range(rng.randint(1, 3))]
        lines += tail
    index = scene.add_script(rng, lines)
    return Source("canvas", block=f"s{index}b1"), origin, kind


def _palette_nth(rng: random.Random, kind: BlockKind, scene: Scene) -> int:
    """Which of the palette's blocks of that opcode: a variable's or a list's own reporter."""
    if kind.opcode == "data_variable":
        return rng.randrange(len(scene.variables))
    if kind.opcode == "data_listcontents":
        return rng.randrange(len(scene.lists))
    return 0


def _instruction(
    rng: random.Random,
    spot: Spot,
    origin: str,
    source: Source,
    kind: BlockKind,
    scene: Scene,
    blocks: dict[str, Any],
    palette_category: str | None,
    shown: set[str] | None = None,
    version: int = VERSION,
) -> str:
    """The task's instruction. Where the source's twin shows (a palette block of the canvas
    source's opcode, or a canvas block of the palette source's), the source phrase says which
    one is meant: the canvas or the palette. ``shown``: the blocks in view (``Labeller``);
    ``version``: the generator version whose wording rules apply (``versions.py``)."""
    labeller = grammar.Labeller(rng, blocks, shown)
    variables, lists = scene.palette_names()
    if origin == "palette":
        twin = any(isinstance(b, dict) and b.get("opcode") == kind.opcode for b in blocks.values())
        if kind.opcode == "data_variable":
            label = variables[source.nth]
        elif kind.opcode == "data_listcontents":
            label = lists[source.nth]
        else:
            default = named(kind.text(), variables[0], lists[0])
            label = grammar.palette_label(kind.opcode, rng, default, distinct=version >= 7)
        src = grammar.source_phrase(origin, grammar.Named(label), rng, kind.category, twin)
        moved: set[str] = set()
    else:
        twin = palette_category == kind.category
        moved = _stack_ids(blocks, source.block or "")
        src_name = labeller.name(source.block or "")
        src = grammar.source_phrase(origin, src_name, rng, kind.category, twin)
    target = grammar.quoted(labeller.name(spot.block, moved), rng)
    extra: dict[str, str] = {}
    block = blocks[spot.block]
    if spot.kind == "insert":
        extra["next"] = grammar.quoted(labeller.name(block["next"], moved), rng, article=False)
    if spot.kind == "below" and block.get("parent") and not block.get("next"):
        if version >= 7:  # the last block of a hat's own stack, the hat in view
            top = grammar.stack_top(blocks, spot.block)
            if blocks[top].get("parent") or (shown is not None and top not in shown):
                top = spot.block
        else:  # up through mouths too: also the last block in a mouth
            top = grammar.script_top(blocks, spot.block)
        if top != spot.block and blocks[top]["opcode"].startswith(("event_", "control_start")):
            extra["script_top"] = grammar.quoted(labeller.name(top, moved), rng, article=False)
    if spot.kind == "c_mouth":
        if spot.empty:
            extra["empty"] = "1"
        if block["opcode"] == "control_if_else":
            extra["if_else"] = "1"
    slot = None
    if spot.kind in ("value_slot", "condition"):
        value = _literal(block, spot.input or "")
        slot = grammar.slot_phrase(rng, spot.kind, block["opcode"], spot.input or "", value)
    # 7: a stack's end is rarer than 6 took it to be, so its phrase is drawn three times as often
    weight = 3 if version >= 7 else 1
    return grammar.instruction(rng, spot.kind, src, target, slot, extra, weight)


def reinstruct(task: DragTask, rng: random.Random, version: int = VERSION) -> str:
    """Another instruction for a generated task: the same scene, source and goal, worded anew by
    the grammar (its templates, verbs and ways of naming blocks) as generator ``version`` words
    it. Training uses it to show each captured scene with many wordings; the task and its
    feasible regions do not change."""
    from scratch_gym.program import catalogue
    from scratch_gym.single_drag.tasks.kinds import edited_blocks, relation_kind, source_kind

    project = task.build_project()
    blocks = edited_blocks(task, project)
    rel = task.main_relation()
    kind = relation_kind(task, project)
    target = blocks[rel.block]
    empty = True
    if kind in ("c_mouth", "else"):
        ref = target.get("inputs", {}).get(rel.input or "")
        empty = not (ref and ref[1])
    spot = Spot(kind, rel.block, rel.input if rel.rel == "input" else None, empty=empty)
    origin = source_kind(task, project)
    if task.source.origin == "flyout":
        opcode = task.source.opcode or ""
    else:
        opcode = blocks[task.source.block or ""]["opcode"]
    spec = task.project
    scene = Scene(
        target=spec.get("target", "Sprite1"),
        variables=list(spec.get("variables", [])),
        lists=list(spec.get("lists", [])),
    )
    source_kind_ = BlockKind(catalogue.get(opcode))
    category = task.view.category if task.view else None
    in_view = task.meta.get("in_view")
    shown = None if in_view is None else set(in_view)
    return _instruction(
        rng, spot, origin, task.source, source_kind_, scene, blocks, category, shown, version
    )


def _literal(block: dict[str, Any], name: str) -> str | None:
    ref = block.get("inputs", {}).get(name)
    if ref and isinstance(ref[1], list) and len(ref[1]) > 1:
        return str(ref[1][1])
    return None


def _stack_ids(blocks: dict[str, Any], top: str) -> set[str]:
    """The ids of a block, what it holds and what hangs below it."""
    out, todo = set(), [top]
    while todo:
        bid = todo.pop()
        if bid in out or not isinstance(blocks.get(bid), dict):
            continue
        out.add(bid)
        b = blocks[bid]
        if b.get("next"):
            todo.append(b["next"])
        todo += [r[1] for r in b.get("inputs", {}).values() if len(r) > 1 and isinstance(r[1], str)]
    return out


def _overlapping(geo: Geometry) -> bool:
    """Do two scripts' boxes overlap on screen?"""
    boxes = [b["box"] for b in geo.data["canvas"] if b["top"] and not b["shadow"]]
    for i, (ax, ay, aw, ah) in enumerate(boxes):
        for bx, by, bw, bh in boxes[i + 1 :]:
            if ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah:
                return True
    return False


def _points_to_show(geo: Geometry, task: DragTask) -> list[tuple[float, float]]:
    """Screen points that must lie in the code area: the target connection, the target block's
    corner and, for a canvas source, its grab area."""
    _, target = connection_pair(geo, task)
    rel = task.main_relation()
    left, top, _, _ = geo.canvas_block(rel.block)["path"]
    points = [target, (left, top)]
    if task.source.origin == "canvas":
        sl, st, sw, sh = geo.source_block(task)["path"]
        points += [(sl, st), (sl + min(sw, 60.0), st + min(sh, 30.0))]
    return points


def _blocks_in_view(page: EditorPage) -> list[str]:
    """The ids of the canvas blocks the element list shows (an uncovered point in the code
    area): the blocks an agent that reads the screen can count."""
    return sorted({e["block_id"] for e in page.bridge.elements_list() if e.get("type") == "block"})


def _inner(geo: Geometry) -> tuple[float, float, float, float]:
    x, y, w, h = geo.data["canvas_rect"]
    return x + MARGIN[0], y + MARGIN[1], x + w - MARGIN[2], y + h - MARGIN[3]
