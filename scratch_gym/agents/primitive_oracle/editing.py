"""The primitive oracle's executor: the oracles' shared edit plan
(:mod:`scratch_gym.agents.edit_plan`) carried out by mouse and keyboard.

Blocks are built in place, as a person builds them: each new block is dragged from the palette
straight onto the connection it belongs to (under a block, into a C-block's mouth, into an input
slot), then its inputs are filled in. After every drag the VM's blocks are checked; a drag that
snapped elsewhere is undone (Ctrl+Z) and tried again. Targets, data and custom blocks are made in
the sprite pane and dialogs (:mod:`~scratch_gym.agents.primitive_oracle.dialogs`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from scratch_gym.agents import edit_plan as ep
from scratch_gym.agents.composite_plan import ARGUMENTS, BlockTree
from scratch_gym.agents.primitive_oracle import dialogs
from scratch_gym.agents.primitive_oracle import gestures as g
from scratch_gym.agents.primitive_oracle.gestures import Action, OracleError, Point
from scratch_gym.agents.primitive_oracle.view import EditorView

DRAG_TRIES = 3


class ScriptEditor:
    """Turns the editing target's scripts into the golden ones (generators of actions)."""

    def __init__(self, view: EditorView) -> None:
        self.view = view

    # -- a target ---------------------------------------------------------------------------------
    def edit_target(self, want: list[list[BlockTree]]) -> Iterator[Action]:
        """Plan the editing target's scripts from the live ones and carry the plan out."""
        yield from ep.carry_out(
            ep.script_ops(self.view.scripts(), want), self.execute, self.view.vm
        )

    def execute(self, op: ep.EditOp, fill: ep.Fill | None = None) -> Iterator[Action]:
        """The gestures of one edit operation; returns the id of a block it makes (dragged into
        place, then filled in)."""
        if isinstance(op, ep.SelectTarget):
            yield from dialogs.select_target(self.view, op)
        elif isinstance(op, ep.MakeData):
            yield from dialogs.make_data(self.view, op)
        elif isinstance(op, ep.DefineBlock):
            return (yield from dialogs.define_block(self.view, op))
        elif isinstance(op, ep.AddBlock):
            node = BlockTree(op.new, op.opcode, (op.opcode,), dict(op.options))
            slot = op.stack
            if op.parent is not None and op.input is not None:
                slot = self._input_id(op.parent, op.input)
            made = yield from self.insert(node, op.below, None if op.below else op.parent, slot)
            assert fill is not None
            yield from fill(made)
            return made
        elif isinstance(op, ep.SetInput):
            yield from self.set_input(op.block, self._input_id(op.block, op.input), op.value)
        elif isinstance(op, ep.SetField):
            yield from self.set_field(op.block, op.field, op.value)
        elif isinstance(op, ep.DeleteBlock):
            yield from self.delete_block(op.block)
        elif isinstance(op, ep.DeleteScript):
            yield from self.delete_script(op.top)
        else:
            raise TypeError(f"not an edit operation: {op!r}")
        return None

    def _input_id(self, block_id: str, name: str) -> str:
        """The input's real name (a custom-block call's inputs are keyed by argument names)."""
        blocks = self.view.vm()["blocks"]
        if blocks[block_id]["opcode"] != "procedures_call":
            return name
        code = (blocks[block_id].get("mutation") or {}).get("proccode")
        for b in blocks.values():
            m = b.get("mutation") or {}
            if b.get("opcode") == "procedures_prototype" and m.get("proccode") == code:
                ids = json.loads(m.get("argumentids") or "[]")
                names = json.loads(m.get("argumentnames") or "[]")
                return dict(zip(names, ids, strict=False)).get(name, name)
        return name

    # -- new blocks -------------------------------------------------------------------------------
    def insert(
        self, node: BlockTree, after: str | None, parent: str | None, slot: str | None = None
    ) -> Iterator[Action]:
        """Drag a new ``node`` block onto the canvas: under ``after``, into ``parent``'s ``slot``,
        or (neither) onto free canvas. Returns the new block's id. A drop that lands elsewhere is
        taken back; the next tries go in two moves (onto free canvas, then into place). A C-block
        dropped inside a stack wraps the blocks below it: that drop is taken back too, and the
        next try hangs those blocks under the new block on free canvas before moving it in."""
        tail_first = False
        for attempt in range(DRAG_TRIES):
            two_moves = (attempt > 0 or tail_first) and (after is not None or parent is not None)
            source = yield from self._source(node)
            if two_moves:
                target = yield from self._target(None, None, None, source)
            else:
                target = yield from self._target(after, parent, slot, source)
            before = set(self.view.vm()["blocks"])
            hold = source["previous"] or source["output"] or [source["x"], source["y"]]
            grab = source["grab"]
            end = (grab[0] + target[0] - hold[0], grab[1] + target[1] - hold[1])
            yield g.drag(grab, end)
            blocks = self.view.vm()["blocks"]
            made = [
                i
                for i, b in blocks.items()
                if i not in before and b["opcode"] == node.opcode and not b.get("shadow")
            ]
            if two_moves and len(made) == 1 and not blocks[made[0]].get("parent"):
                handle = "previous" if source["previous"] else "output"
                if tail_first and after is not None:
                    yield from self._hang_tail(made[0], after)
                point = yield from self._target(after, parent, slot, source)
                yield from self._move(made[0], point, handle)
                blocks = self.view.vm()["blocks"]
            if len(made) == 1 and self._placed(blocks, made[0], after, parent, slot):
                if not _wrapped(blocks, made[0]):
                    return made[0]
                tail_first = after is not None
            yield from self._take_back(before)
        raise OracleError(f"could not place {node.opcode} ({DRAG_TRIES} tries)")

    def _hang_tail(self, made: str, after: str) -> Iterator[Action]:
        """Move the blocks under ``after`` to under ``made`` (a new C-block on free canvas)."""
        tail = self.view.vm()["blocks"][after].get("next")
        if not tail:
            return
        geo = self.view.block(made)
        if geo is None or geo.get("next") is None:
            raise OracleError(f"block {made} has no next connection")
        yield from self._move(tail, tuple(geo["next"]), "previous")
        if self.view.vm()["blocks"][made].get("next") != tail:
            raise OracleError(f"the blocks under {after} did not go under {made}")

    def _take_back(self, before: set[str]) -> Iterator[Action]:
        """Undo a drag that did not do what was planned (Ctrl+Z), and delete what is left of it."""
        if not set(self.view.vm()["blocks"]) - before:
            return
        yield g.hotkey("Control+z")
        yield from self._remove_new(before)

    def _remove_new(self, before: set[str]) -> Iterator[Action]:
        """Delete the blocks that are not in ``before``. Blocks of ``before`` that such a block
        holds (the stack below it, the blocks it wrapped in its mouth, a reporter in an input)
        are set aside first: dragging a block to the palette deletes everything it holds."""
        for _ in range(3):
            blocks = self.view.vm()["blocks"]
            extra = [i for i in blocks if i not in before and not blocks[i].get("shadow")]
            if not extra:
                return
            top = next((i for i in extra if blocks[i].get("parent") not in extra), extra[0])
            yield from self._set_aside_held(top, before)
            yield from self._trash(top)

    def _set_aside_held(self, block_id: str, before: set[str]) -> Iterator[Action]:
        """Move the blocks of ``before`` that ``block_id`` holds out of it. A stack goes where
        ``block_id`` hangs (it joins the stack above in its place, ``block_id`` under its end),
        or onto free canvas when ``block_id`` hangs nowhere; a reporter onto free canvas."""
        blocks = self.view.vm()["blocks"]
        b = blocks[block_id]
        held = [
            inp["block"]
            for inp in (b.get("inputs") or {}).values()
            if inp.get("block") in before and not blocks[inp["block"]].get("shadow")
        ]
        if b.get("next") in before:
            held.append(b["next"])
        for held_id in held:
            geo = self.view.block(block_id)
            held_geo = self.view.block(held_id)
            if geo is None or held_geo is None:
                raise OracleError(f"block {held_id} in {block_id} is not on the workspace")
            handle = "previous" if held_geo.get("previous") is not None else "output"
            if handle == "previous" and b.get("parent") and geo.get("previous") is not None:
                yield from self._move(held_id, tuple(geo["previous"]), handle)
            else:
                spot = g.free_spot(self.view.workspace())
                if spot is None:
                    raise OracleError("no free canvas to set blocks aside")
                yield from self._move(held_id, spot, handle)
            if self.view.vm()["blocks"][held_id].get("parent") == block_id:
                raise OracleError(f"block {held_id} did not leave {block_id}")

    def _source(self, node: BlockTree) -> Iterator[Action]:
        """The palette block (or prototype argument) to drag a new ``node`` from."""
        op = node.opcode
        if op in ARGUMENTS:
            # the reporter in its definition's prototype: scrolled into view (and read again, in
            # case the definition was still being drawn) until it can be grabbed
            name = node.options.get("argument")
            for _ in range(g.MAX_SCROLLS):
                ws = self.view.workspace()
                arg = next((a for a in ws["args"] if a["opcode"] == op and a["name"] == name), None)
                if arg is None:
                    break
                if arg["grab"] is not None and g.in_area(ws["area"], arg["grab"], 5):
                    return arg
                yield from self._scroll_to(ws, (arg["x"] + arg["w"] / 2, arg["y"] + arg["h"] / 2))
            raise OracleError(f"no visible argument reporter {name!r}")
        if op == "data_variable":
            name = node.options.get("variable")
            label, match = "Variables", lambda b: _field_text(b, "VARIABLE") == name
        elif op == "data_listcontents":
            name = node.options.get("list")
            label, match = "Variables", lambda b: _field_text(b, "LIST") == name
        elif op == "procedures_call":
            code = node.options.get("proccode")
            label, match = "My Blocks", lambda b: b.get("proccode") == code
        else:
            label, match = g.category_label(op), lambda b: True
        return (
            yield from g.palette_block(self.view, label, lambda b: b["opcode"] == op and match(b))
        )

    def _target(
        self, after: str | None, parent: str | None, slot: str | None, source: dict[str, Any]
    ) -> Iterator[Action]:
        """The screen point the new block's connection must land on (scrolled into view)."""
        last: Any = None
        for _ in range(g.MAX_SCROLLS):
            ws = self.view.workspace()
            if after is not None:
                point = _geometry(ws, after)["next"]
            elif parent is not None:
                inputs = {i["name"]: i for i in _geometry(ws, parent)["inputs"]}
                if slot not in inputs:
                    raise OracleError(f"block {parent} has no input {slot!r}")
                point = inputs[slot]["connection"]
            else:
                # roomy where the canvas allows; else just far enough from other scripts that
                # nothing snaps to them (the block may overlap one: it is grabbed where visible)
                spot = g.free_spot(ws, (max(230.0, source["w"] + 60), 160.0)) or g.free_spot(
                    ws, (120.0, 160.0)
                )
                if spot is not None:
                    return spot
                yield from self._make_room(ws)
                continue
            if g.in_area(ws["area"], point):
                return point
            stuck = last is not None and abs(point[0] - last[0]) + abs(point[1] - last[1]) < 2
            if stuck:  # the workspace scrolls no further that way: zoom out instead
                yield from self._make_room(ws)
            else:
                yield from self._scroll_to(ws, point)
            last = point
        raise OracleError("the drop point did not come into view")

    def _scroll_to(self, ws: dict[str, Any], point: Point) -> Iterator[Action]:
        mid = g.area_middle(ws["area"])
        yield g.scroll(mid, point[1] - mid[1], point[0] - mid[0])

    def _make_room(self, ws: dict[str, Any]) -> Iterator[Action]:
        """No free canvas in view: zoom out once (the zoom-out button)."""
        button = g.find(self.view.elements(), type="button", text="zoom out")
        yield g.click_on(button, "free canvas and no zoom-out button")

    def _placed(
        self, blocks: dict, made: str, after: str | None, parent: str | None, slot: str | None
    ) -> bool:
        b = blocks[made]
        if after is not None:
            return b.get("parent") == after and blocks[after].get("next") == made
        if parent is not None:
            inp = (blocks[parent].get("inputs") or {}).get(slot) or {}
            return b.get("parent") == parent and inp.get("block") == made
        return not b.get("parent")

    # -- moving and deleting ----------------------------------------------------------------------
    def _move(self, block_id: str, to: Point, handle: str) -> Iterator[Action]:
        """Drag an existing block (and what hangs under it) so its ``handle`` connection lands on
        ``to``."""
        geo = self.view.block(block_id)
        if geo is None or geo[handle] is None:
            raise OracleError(f"block {block_id} cannot be grabbed")
        # how far the block must travel: the same wherever the workspace is scrolled to
        shift = (to[0] - geo[handle][0], to[1] - geo[handle][1])
        for _ in range(g.MAX_SCROLLS):
            ws = self.view.workspace()
            geo = _geometry(ws, block_id)
            grab = geo["grab"]
            if grab is None:
                yield from self._scroll_to(ws, (geo["x"] + 20, geo["y"] + 10))
                continue
            end = (grab[0] + shift[0], grab[1] + shift[1])
            if g.in_area(ws["area"], grab, 5) and g.in_area(ws["area"], end, 5):
                yield g.drag(grab, end)
                return
            # a drop outside the code area is lost (over the palette it deletes the block):
            # scroll both ends into view, centred between them
            yield from self._scroll_to(ws, ((grab[0] + end[0]) / 2, (grab[1] + end[1]) / 2))
        raise OracleError(f"block {block_id} and where it goes are not both in view")

    def _trash(self, block_id: str) -> Iterator[Action]:
        """Drag a block (with everything under it) onto the palette, which deletes it."""
        for _ in range(g.MAX_SCROLLS):
            ws = self.view.workspace()
            geo = _geometry(ws, block_id)
            if geo["grab"] is not None and g.in_area(ws["area"], geo["grab"], 5):
                yield g.drag(geo["grab"], g.TRASH_POINT)
                if block_id in self.view.vm()["blocks"]:
                    raise OracleError(f"block {block_id} was not deleted")
                return
            yield from self._scroll_to(ws, (geo["x"] + 20, geo["y"] + 10))
        raise OracleError(f"block {block_id} could not be grabbed to delete it")

    def delete_script(self, top: str) -> Iterator[Action]:
        yield from self._trash(top)

    def delete_block(self, block_id: str) -> Iterator[Action]:
        """Delete one block; the blocks under it stay (moved up into its place first)."""
        b = self.view.vm()["blocks"].get(block_id)
        if b is None:
            return
        geo = self.view.block(block_id)
        if b.get("next") and geo is not None and geo.get("previous") is not None:
            yield from self._set_aside_held(block_id, {b["next"]})
        yield from self._trash(block_id)

    # -- values -----------------------------------------------------------------------------------
    def set_input(self, block_id: str, name: str, value: str) -> Iterator[Action]:
        """Type a literal into an input, or pick it in the input's menu."""

        def shadow_of(geo: dict[str, Any]) -> dict[str, Any]:
            inputs = {i["name"]: i for i in geo.get("inputs", [])}
            shadow = (inputs.get(name) or {}).get("shadow")
            if not shadow or not shadow["field"]:
                raise OracleError(f"input {name} of {block_id} has no editable value")
            return shadow

        point = yield from self._visible(block_id, lambda geo: shadow_of(geo)["center"])
        shadow = shadow_of(self.view.block(block_id) or {})
        if shadow["opcode"] == "colour_picker":
            yield from self._pick_colour(point, value)
            return
        options = self.view.options(shadow["id"], shadow["field"])
        if options is not None:
            yield g.click(point)
            yield from self._pick(options, value, shadow["opcode"])
            return
        yield from self._open_text(block_id, lambda geo: shadow_of(geo)["center"])
        yield from self._type(value)

    def set_field(self, block_id: str, name: str, value: str) -> Iterator[Action]:
        def field_of(geo: dict[str, Any]) -> Point:
            field = geo.get("fields", {}).get(name)
            if not field or not field["center"]:
                raise OracleError(f"field {name} of {block_id} is not drawn")
            return field["center"]

        options = self.view.options(block_id, name)
        if options is not None:
            point = yield from self._visible(block_id, field_of)
            yield g.click(point)
            yield from self._pick(options, value, name)
        else:
            yield from self._open_text(block_id, field_of)
            yield from self._type(value)

    def _open_text(self, block_id: str, point_of: Any) -> Iterator[Action]:
        """Click a text field until its editor has the focus with its text selected (so typing
        replaces it). The first click opens the editor with the text selected; an angle opens its
        dial without focusing the text, and a click that found the block instead of the field is
        repeated at the field's new place: after such a second click, select the text."""
        for attempt in range(3):
            point = yield from self._visible(block_id, point_of)
            yield g.click(point)
            if self.view.editing():
                if attempt:
                    yield g.hotkey("Control+a")
                return
        raise OracleError(f"the text editor of a field of {block_id} did not open")

    def _type(self, value: str) -> Iterator[Action]:
        """The field's editor is open with its text selected: typing replaces it."""
        yield g.type_text(value) if value else g.key("Backspace")
        yield g.key("Enter")

    def _pick(self, options: list[list[str]], value: str, what: str) -> Iterator[Action]:
        labels = [label for label, v in options if v == value and label]
        labels += [label for label, _ in options if label == value]
        labels += [label for label, v in options if value.lower() in (label.lower(), v.lower())]
        if labels:
            yield from g.menu_pick(self.view, list(dict.fromkeys(labels)))
            return
        if "broadcast" in what.lower():
            yield from g.menu_pick(self.view, ["New message"])
            yield from self._dialog_name(value)
            return
        yield g.key("Escape")
        raise OracleError(f"{value!r} is not an option of {what}")

    def _pick_colour(self, field: Point, value: str) -> Iterator[Action]:
        """Set a colour with the picker's eyedropper on a stage pixel of that colour, or, where
        the stage shows none, with its Color, Saturation and Brightness sliders."""
        stage = g.find(self.view.elements(), type="stage")
        spot = None if stage is None else g.colour_spot(self.view.screenshot(), stage, value)
        if spot is None:
            yield from self._slide_colour(field, value)
            return
        yield g.click(field)
        dropper = [
            e
            for e in self.view.elements()
            if e["type"] == "button" and e["group"] == 8 and not e["text"]
        ]
        if not dropper:
            raise OracleError("the colour picker has no eyedropper")
        yield g.click(g.centre(dropper[-1]))
        yield g.click(spot)

    def _slide_colour(self, field: Point, value: str) -> Iterator[Action]:
        """Open the picker and set each slider: a click on its track where the value lies, then
        Home or End for a value at an end of the range, or the arrow keys to correct the rest."""
        yield g.click(field)
        targets = g.slider_values(value)
        for index, target in enumerate(targets):
            sliders = self.view.colour_sliders()
            if len(sliders) != len(targets):
                raise OracleError("the colour picker did not open with its three sliders")
            yield g.click(g.slider_point(sliders[index], target))
            s = self.view.colour_sliders()[index]
            step = (s["max"] - s["min"]) / 1000 if s["max"] <= 1 else 1.0
            if target <= s["min"]:
                yield g.key("Home")
            elif target >= s["max"]:
                yield g.key("End")
            else:
                for _ in range(4):  # a click lands within a step or two of the value
                    off = round((target - self.view.colour_sliders()[index]["value"]) / step)
                    if off == 0:
                        break
                    yield g.key("ArrowRight" if off > 0 else "ArrowLeft")
        yield g.key("Escape")

    def _dialog_name(self, value: str) -> Iterator[Action]:
        """Type a name into the open prompt and confirm it."""
        yield g.type_text(value)
        ok = g.find(self.view.elements(), type="button", text="OK")
        yield g.click(g.centre(ok)) if ok is not None else g.key("Enter")

    def _visible(self, block_id: str, point_of: Any) -> Iterator[Action]:
        """Scroll the code area until ``point_of(block geometry)`` is in view; returns it."""
        for _ in range(g.MAX_SCROLLS):
            ws = self.view.workspace()
            point = tuple(point_of(_geometry(ws, block_id)))
            if g.in_area(ws["area"], point, 30):
                return point
            yield from self._scroll_to(ws, point)
        raise OracleError(f"block {block_id} did not come into view")


def _geometry(ws: dict[str, Any], block_id: str) -> dict[str, Any]:
    for b in ws["blocks"]:
        if b["id"] == block_id:
            return b
    raise OracleError(f"block {block_id} is not on the workspace")


def _wrapped(blocks: dict[str, Any], made: str) -> bool:
    """Whether a new block (its mouths start empty) holds blocks: it wrapped those below it."""
    inputs = blocks[made].get("inputs") or {}
    return any((inputs.get(name) or {}).get("block") for name in ("SUBSTACK", "SUBSTACK2"))


def _field_text(geo: dict[str, Any], name: str) -> str | None:
    f = (geo.get("fields") or {}).get(name)
    return f["text"] if f else None
