"""The primitive oracle's gestures outside the code area: the sprite pane (select a target), Make a
Variable / Make a List, and Make a Block (a new custom block, then set apart from the scripts)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from scratch_gym.agents.edit_plan import DefineBlock, MakeData, SelectTarget
from scratch_gym.agents.primitive_oracle import gestures as g
from scratch_gym.agents.primitive_oracle.gestures import Action, OracleError
from scratch_gym.agents.primitive_oracle.view import EditorView


def select_target(view: EditorView, op: SelectTarget) -> Iterator[Action]:
    """Click the sprite (or the stage) in the sprite pane."""
    if op.stage:
        el = g.find(view.elements(), type="stage_selector")
    else:
        el = g.find(view.elements(), type="sprite", text=op.name)
    if el is None:
        raise OracleError(f"cannot see {op.name!r} in the sprite pane")
    yield g.click(g.centre(el))
    state = view.vm()
    if not (state["is_stage"] if op.stage else state["target"] == op.name):
        raise OracleError(f"clicking {op.name!r} did not select it")


def make_data(view: EditorView, op: MakeData) -> Iterator[Action]:
    """Make a Variable / Make a List: the dialog's name, scope and OK."""
    yield from g.open_category(view, "Variables")
    text = "Make a List" if op.is_list else "Make a Variable"
    button = g.find(view.elements(), type="flyout_button", text=text)
    yield g.click_on(button, f"{text} button")
    yield g.type_text(op.name)
    if not op.stage:
        radio = _labelled_input(view, "this sprite only")
        yield g.click_on(radio, "'For this sprite only' choice in the dialog")
    ok = g.find(view.elements(), type="button", text="OK")
    yield g.click_on(ok, "OK button in the dialog")


def define_block(view: EditorView, op: DefineBlock) -> Iterator[Action]:
    """Make a Block: the dialog's name, inputs (number or text / boolean) and labels in proccode
    order, "Run without screen refresh", OK; the new definition is then moved to free canvas.
    Returns the new definition's id (its body is built later)."""
    before = set(view.vm()["blocks"])
    yield from g.open_category(view, "My Blocks")
    button = g.find(view.elements(), type="flyout_button", text="Make a Block")
    yield g.click_on(button, "Make a Block button")
    yield from _block_dialog(view, op)
    made = [
        i
        for i, b in view.vm()["blocks"].items()
        if i not in before and b["opcode"] == "procedures_definition"
    ]
    if len(made) != 1:
        raise OracleError(f"Make a Block made {len(made)} definitions")
    yield from _set_aside(view, made[0])
    return made[0]


def _labelled_input(view: EditorView, label: str) -> dict[str, Any] | None:
    return next(
        (e for e in view.elements() if e["type"] == "input" and label in e.get("label", "")), None
    )


def _block_dialog(view: EditorView, op: DefineBlock) -> Iterator[Action]:
    names = list(op.argument_names)
    first = True
    for kind, text in _proccode_parts(op.proccode):
        if kind == "label" and first:
            yield g.type_text(text)  # the name field has focus, its text selected
        else:
            button = {
                "label": "Add a label",
                "%s": "Add an input number or text",
                "%b": "Add an input boolean",
            }[kind]
            el = g.find(view.elements(), type="button", text=button)
            yield g.click_on(el, f"{button!r} in the Make a Block dialog")
            yield g.type_text(text if kind == "label" else names.pop(0))
        first = False
    if op.warp:
        box = _labelled_input(view, "screen refresh")
        yield g.click_on(box, "'Run without screen refresh' box")
    ok = g.find(view.elements(), type="button", text="OK")
    yield g.click_on(ok, "OK button in the Make a Block dialog")


def _set_aside(view: EditorView, block_id: str) -> Iterator[Action]:
    """Drag a new definition that overlaps other scripts below all of them, where its body
    can grow without covering them (Make a Block puts it at the top of the view). A drop
    must stay in the code area: a long way down takes a drag to the bottom of the view and
    a scroll, repeated."""
    for _ in range(g.MAX_SCROLLS):
        ws = view.workspace()
        me = next(b for b in ws["blocks"] if b["id"] == block_id)
        root = roots(ws["blocks"])
        others = [b for b in ws["blocks"] if root[b["id"]] != block_id]
        if not any(overlap(me, b) for b in others):
            return
        area = ws["area"]
        want_x = max(min(b["x"] for b in others), area["x"] + g.EDGE)
        want_y = max(b["y"] + b["h"] for b in others) + 40
        lowest = area["y"] + area["h"] - me["h"] - 60  # the lowest drop that stays in view
        grabbable = me["grab"] is not None and g.in_area(area, me["grab"], 5)
        far_below = want_y > lowest and me["y"] > area["y"] + area["h"] / 2
        if not grabbable or far_below:  # bring the definition near the top of the view
            yield g.scroll(g.area_middle(area), me["y"] - area["y"] - 60, 0.0)
            continue
        to = (want_x, min(want_y, lowest))
        yield g.drag(me["grab"], (me["grab"][0] + to[0] - me["x"], me["grab"][1] + to[1] - me["y"]))
    raise OracleError(f"could not set the new definition {block_id} apart from the scripts")


def roots(blocks: list[dict[str, Any]]) -> dict[str, str]:
    """Each block's script: the id of its top block (a definition's prototype is in its script)."""
    parent_of = {b["id"]: b["parent"] for b in blocks}
    out = {}
    for b in blocks:
        at = b["id"]
        while parent_of.get(at):
            at = parent_of[at]
        out[b["id"]] = at
    return out


def overlap(a: dict[str, Any], b: dict[str, Any], margin: float = 20.0) -> bool:
    return not (
        a["x"] + a["w"] + margin < b["x"]
        or b["x"] + b["w"] + margin < a["x"]
        or a["y"] + a["h"] + margin < b["y"]
        or b["y"] + b["h"] + margin < a["y"]
    )


def _proccode_parts(proccode: str) -> list[tuple[str, str]]:
    """("label", text) and ("%s" | "%b", "") parts of a proccode, in order."""
    parts: list[tuple[str, str]] = []
    for token in proccode.split(" "):
        if token in ("%s", "%b", "%n"):
            parts.append(("%b" if token == "%b" else "%s", ""))
        elif parts and parts[-1][0] == "label":
            parts[-1] = ("label", parts[-1][1] + " " + token)
        else:
            parts.append(("label", token))
    return parts
