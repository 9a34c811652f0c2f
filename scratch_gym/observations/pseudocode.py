"""Composite mode's observation: the program and its context as text.

A ``Dict`` of text:

* ``instruction``: the task.
* ``target``: the sprite (or the stage) whose scripts are shown, e.g. ``Sprite1 (sprite)``.
* ``targets``: every sprite and the stage, one per line, with position, direction, size, costume.
* ``variables``: the variables and lists in scope (``name: variable for all sprites = 0``), and
  the broadcast messages.
* ``pseudocode``: the target's scripts in scratchblocks, as the program model renders them, with
  block indices (see ``program.numbering``: an index column, and ``// N: (reporter)``
  naming the reporters of a line). Actions refer to blocks by these indices.
* ``fields``: per block with fields or inputs, ``N opcode: NAME = value (kind; choices: ...)``
  (a custom block's call names its inputs as its definition does).
* ``last_action_result`` / ``last_action_error``: what the last action did, or why it failed.
"""

from __future__ import annotations

import json
from typing import Any

from gymnasium import spaces

from scratch_gym.editor.page import EditorPage
from scratch_gym.observations.base import EpisodeText
from scratch_gym.program import catalogue
from scratch_gym.program.numbering import NumberedProgram, call_arguments, number_blocks
from scratch_gym.spaces import UnicodeText

TEXT_KEYS = (
    "instruction",
    "target",
    "targets",
    "variables",
    "pseudocode",
    "fields",
    "last_action_result",
    "last_action_error",
)
MAX_VALUE_CHARS = 200
# Catalogue argument kinds as the fields text names them ("" = the editor's own kind).
KIND_LABELS = {"field": "menu", "variable": "", "broadcast": "broadcast"}


class PseudocodeObservation:
    """Text observation of the editing target's program (see module doc)."""

    paint_frames = 0  # text from the VM and workspace: no need to wait for paint

    def __init__(self) -> None:
        self.space = spaces.Dict({k: UnicodeText(max_length=1_000_000) for k in TEXT_KEYS})

    def observe(self, page: EditorPage, text: EpisodeText) -> dict[str, str]:
        state = page.bridge.composite_observe()
        program = number_blocks(state["blocks"])
        kind = "stage" if state["is_stage"] else "sprite"
        return {
            "instruction": text.instruction,
            "target": f"{state['target']} ({kind})" if state["target"] else "",
            "targets": targets_text(state["targets"], state["target"]),
            "variables": variables_text(state["variables"]),
            "pseudocode": program.text(),
            "fields": fields_text(program, state["blocks"], state["slots"]),
            "last_action_result": text.last_action_result,
            "last_action_error": text.last_action_error,
        }

    def shown_elements(self) -> list[Any] | None:
        return None  # lists no elements

    def blank(self, text: EpisodeText) -> dict[str, str]:
        out = dict.fromkeys(TEXT_KEYS, "")
        out["instruction"] = text.instruction
        out["last_action_result"] = text.last_action_result
        out["last_action_error"] = text.last_action_error
        return out


def _num(x: float) -> str:
    return str(int(round(x))) if abs(x - round(x)) < 1e-9 else f"{x:.2f}"


def targets_text(targets: list[dict[str, Any]], selected: str | None) -> str:
    lines = []
    for t in targets:
        mark = ", selected" if t["name"] == selected else ""
        if t["is_stage"]:
            lines.append(f"Stage (stage{mark}): backdrop {t['costume']}")
            continue
        shown = "shown" if t["visible"] else "hidden"
        lines.append(
            f"{t['name']} (sprite{mark}): x {_num(t['x'])}, y {_num(t['y'])}, "
            f"direction {_num(t['direction'])}, size {_num(t['size'])}, "
            f"costume {t['costume']}, {shown}"
        )
    return "\n".join(lines)


def _value(v: Any) -> str:
    text = json.dumps(v, ensure_ascii=False) if isinstance(v, list) else str(v)
    return text if len(text) <= MAX_VALUE_CHARS else text[: MAX_VALUE_CHARS - 3] + "..."


def variables_text(variables: list[dict[str, Any]]) -> str:
    lines = []
    for v in variables:
        if v["type"] not in ("variable", "list"):
            continue
        scope = "for all sprites" if v["scope"] == "all" else "for this sprite only"
        lines.append(f"{v['name']}: {v['type']} {scope} = {_value(v['value'])}")
    broadcasts = sorted(v["name"] for v in variables if v["type"] == "broadcast")
    if broadcasts:
        lines.append("broadcast messages: " + ", ".join(broadcasts))
    return "\n".join(lines)


def _slot_text(slot: dict[str, Any], kind: str, program: NumberedProgram) -> str:
    name = slot["name"]
    if slot["kind"] == "block":
        index = program.index_of(slot["holds"])
        return f"{name} = block {index}" if index else f"{name} = a block"
    if slot["kind"] == "empty":
        return f"{name} = empty ({kind or 'boolean'} slot)"
    value = slot["text"] if slot["kind"] == "menu" else slot["value"]
    options = slot.get("options")
    if options is None:
        return f"{name} = {value} ({kind or slot['kind']})"
    choices = ", ".join(label for label, _ in options)
    return f"{name} = {value} ({kind or slot['kind']}; choices: {choices or '(none)'})"


def fields_text(
    program: NumberedProgram, blocks: dict[str, Any], slots: dict[str, list[dict[str, Any]]]
) -> str:
    lines = []
    for index, bid in enumerate(program.ids, start=1):
        block_slots = slots.get(bid) or []
        if not block_slots:
            continue
        opcode = blocks[bid]["opcode"]
        spec = catalogue.get(opcode)
        kinds = {a.name: KIND_LABELS.get(a.kind, a.kind) for a in spec.args} if spec else {}
        if opcode == "procedures_call":  # its inputs by the names its definition gives them
            named = call_arguments(blocks, blocks[bid])
            block_slots = [{**s, "name": named.get(s["name"], s["name"])} for s in block_slots]
        parts = [_slot_text(s, kinds.get(s["name"], ""), program) for s in block_slots]
        lines.append(f"{index} {opcode}: " + "; ".join(parts))
    return "\n".join(lines)
