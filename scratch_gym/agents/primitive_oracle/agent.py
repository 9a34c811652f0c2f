"""The primitive oracle: solves a task from its golden project with mouse and keyboard only.

Per target whose scripts, variables or lists differ from the golden's: select it (click the
sprite, or the stage), make the missing variables and lists (Make a Variable / Make a List, with
"For this sprite only" on sprites), define missing custom blocks (Make a Block), then edit the
scripts (:class:`~scratch_gym.agents.primitive_oracle.editing.ScriptEditor`) and answer ``done``.
It reads the editor through :class:`~scratch_gym.agents.primitive_oracle.view.EditorView` only;
every action is a primitive action for ``env.step``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from scratch_gym.agents.golden import GoldenOracle
from scratch_gym.agents.primitive_oracle import gestures as g
from scratch_gym.agents.primitive_oracle.editing import ScriptEditor
from scratch_gym.agents.primitive_oracle.gestures import Action, OracleError
from scratch_gym.agents.primitive_oracle.view import EditorView

# Passes over the targets: a later pass repairs what an earlier one left different from the golden
# (a drag that pulled blocks out of a stack already built, seen now and then in thermostat-limits).
PASSES = 2


class PrimitiveOracleAgent(GoldenOracle):
    """Replays the golden solution of the task given to ``reset`` (needs :meth:`bind`)."""

    mode = "primitive"
    DONE = {"action_type": "done"}
    FAILED = {"action_type": "failed"}
    ActionFailed = OracleError

    def __init__(self, mode: str = "primitive") -> None:
        super().__init__()
        if mode != "primitive":
            raise ValueError(f"the primitive oracle acts in primitive mode, not {mode!r}")
        self.view: EditorView | None = None

    def bind(self, env: Any) -> None:
        self.view = EditorView(env)

    # -- the plan -------------------------------------------------------------------------------
    def _live_project(self) -> dict[str, Any]:
        assert self.view is not None
        return self.view.project()

    def _plan(self) -> Iterator[Action]:
        assert self.view is not None
        for _ in range(PASSES):
            for target, missing, want in self._targets_to_edit():
                yield from self._select(target)
                for api, name in missing:
                    yield from self._make_data(name, api == "add_list", bool(target.get("isStage")))
                yield from self._define_blocks(want)
                yield from ScriptEditor(self.view).edit_target(want)
            self.mismatch = self._differences()
            if not self.mismatch:
                break
        yield {"action_type": "done"}

    def _select(self, target: dict[str, Any]) -> Iterator[Action]:
        assert self.view is not None
        state = self.view.vm()
        if target.get("isStage"):
            if state["is_stage"]:
                return
            el = g.find(self.view.elements(), type="stage_selector")
        else:
            if not state["is_stage"] and state["target"] == target["name"]:
                return
            el = g.find(self.view.elements(), type="sprite", text=target["name"])
        if el is None:
            raise OracleError(f"cannot see {target['name']!r} in the sprite pane")
        yield g.click(g.centre(el))
        state = self.view.vm()
        ok = state["is_stage"] if target.get("isStage") else state["target"] == target["name"]
        if not ok:
            raise OracleError(f"clicking {target['name']!r} did not select it")

    def _make_data(self, name: str, is_list: bool, stage: bool) -> Iterator[Action]:
        """Make a Variable / Make a List: the dialog's name, scope and OK."""
        assert self.view is not None
        yield from g.open_category(self.view, "Variables")
        text = "Make a List" if is_list else "Make a Variable"
        button = g.find(self.view.elements(), type="flyout_button", text=text)
        if button is None:
            raise OracleError(f"no {text} button")
        yield g.click(g.centre(button))
        yield g.type_text(name)
        if not stage:
            radio = next(
                (
                    e
                    for e in self.view.elements()
                    if e["type"] == "input" and "this sprite only" in e.get("label", "")
                ),
                None,
            )
            if radio is None:
                raise OracleError("no 'For this sprite only' choice in the dialog")
            yield g.click(g.centre(radio))
        ok = g.find(self.view.elements(), type="button", text="OK")
        if ok is None:
            raise OracleError("no OK button in the dialog")
        yield g.click(g.centre(ok))

    def _define_blocks(self, want: list) -> Iterator[Action]:
        """Make a Block for each golden definition the target lacks (its body is edited later):
        the dialog's name, inputs (number or text / boolean) and labels in proccode order, "Run
        without screen refresh", OK; the new definition is then moved to free canvas."""
        assert self.view is not None
        have = {n.options.get("proccode") for s in self.view.scripts() for n in s[:1]}
        for script in want:
            top = script[0]
            if top.opcode != "procedures_definition" or top.options["proccode"] in have:
                continue
            before = set(self.view.vm()["blocks"])
            yield from g.open_category(self.view, "My Blocks")
            button = g.find(self.view.elements(), type="flyout_button", text="Make a Block")
            if button is None:
                raise OracleError("no Make a Block button")
            yield g.click(g.centre(button))
            yield from self._block_dialog(top.options)
            made = [
                i
                for i, b in self.view.vm()["blocks"].items()
                if i not in before and b["opcode"] == "procedures_definition"
            ]
            if len(made) != 1:
                raise OracleError(f"Make a Block made {len(made)} definitions")
            yield from self._set_aside(made[0])

    def _block_dialog(self, options: dict[str, Any]) -> Iterator[Action]:
        assert self.view is not None
        names = list(options.get("argument_names") or [])
        parts = _proccode_parts(options["proccode"])
        first = True
        for kind, text in parts:
            if kind == "label" and first:
                yield g.type_text(text)  # the name field has focus, its text selected
            else:
                button = {
                    "label": "Add a label",
                    "%s": "Add an input number or text",
                    "%b": "Add an input boolean",
                }[kind]
                el = g.find(self.view.elements(), type="button", text=button)
                if el is None:
                    raise OracleError(f"no {button!r} in the Make a Block dialog")
                yield g.click(g.centre(el))
                yield g.type_text(text if kind == "label" else names.pop(0))
            first = False
        if options.get("warp"):
            box = next(
                (
                    e
                    for e in self.view.elements()
                    if e["type"] == "input" and "screen refresh" in e.get("label", "")
                ),
                None,
            )
            if box is None:
                raise OracleError("no 'Run without screen refresh' box")
            yield g.click(g.centre(box))
        ok = g.find(self.view.elements(), type="button", text="OK")
        if ok is None:
            raise OracleError("no OK button in the Make a Block dialog")
        yield g.click(g.centre(ok))

    def _set_aside(self, block_id: str) -> Iterator[Action]:
        """Drag a new definition that overlaps other scripts below all of them, where its body
        can grow without covering them (Make a Block puts it at the top of the view). A drop
        must stay in the code area: a long way down takes a drag to the bottom of the view and
        a scroll, repeated."""
        assert self.view is not None
        for _ in range(g.MAX_SCROLLS):
            ws = self.view.workspace()
            me = next(b for b in ws["blocks"] if b["id"] == block_id)
            root = _roots(ws["blocks"])
            others = [b for b in ws["blocks"] if root[b["id"]] != block_id]
            if not any(_overlap(me, b) for b in others):
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
            yield g.drag(
                me["grab"], (me["grab"][0] + to[0] - me["x"], me["grab"][1] + to[1] - me["y"])
            )
        raise OracleError(f"could not set the new definition {block_id} apart from the scripts")


def _roots(blocks: list[dict[str, Any]]) -> dict[str, str]:
    """Each block's script: the id of its top block (a definition's prototype is in its script)."""
    parent_of = {b["id"]: b["parent"] for b in blocks}
    roots = {}
    for b in blocks:
        at = b["id"]
        while parent_of.get(at):
            at = parent_of[at]
        roots[b["id"]] = at
    return roots


def _overlap(a: dict[str, Any], b: dict[str, Any], margin: float = 20.0) -> bool:
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
