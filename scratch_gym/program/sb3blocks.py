"""Scratch 3 block serialisation: primitive codes and the VM's in-memory form made sb3.

``project.json`` stores a target's blocks as a dict of id -> block with inputs such as
``[1, [4, "10"]]`` (a shadow number), ``[3, "id", [4, "10"]]`` (a block over a shadow) or
``[3, [12, "score", "varid"], [10, ""]]`` (a variable over a shadow). The VM holds blocks
uncompressed (``{"inputs": {"STEPS": {"name", "block", "shadow"}}, "fields": {...}}``);
:func:`to_sb3` turns that form into the sb3 one, as the VM's own serialiser does.
"""

from __future__ import annotations

from typing import Any

MATH_NUM, POSITIVE_NUM, WHOLE_NUM, INTEGER_NUM, ANGLE_NUM = 4, 5, 6, 7, 8
COLOR_PICKER, TEXT, BROADCAST, VAR, LIST = 9, 10, 11, 12, 13
INPUT_SAME_BLOCK_SHADOW, INPUT_BLOCK_NO_SHADOW, INPUT_DIFF_BLOCK_SHADOW = 1, 2, 3

PRIMITIVE_OPCODES = {
    "math_number": (MATH_NUM, "NUM"),
    "math_positive_number": (POSITIVE_NUM, "NUM"),
    "math_whole_number": (WHOLE_NUM, "NUM"),
    "math_integer": (INTEGER_NUM, "NUM"),
    "math_angle": (ANGLE_NUM, "NUM"),
    "colour_picker": (COLOR_PICKER, "COLOUR"),
    "text": (TEXT, "TEXT"),
    "event_broadcast_menu": (BROADCAST, "BROADCAST_OPTION"),
    "data_variable": (VAR, "VARIABLE"),
    "data_listcontents": (LIST, "LIST"),
}


def is_vm_form(blocks: dict[str, Any]) -> bool:
    """True when ``blocks`` is the VM's in-memory form (each block carries its ``id``)."""
    return any(isinstance(b, dict) and "id" in b for b in blocks.values())


def _compress(block: dict[str, Any]) -> list | None:
    """The primitive array for a block that sb3 stores inline, or None."""
    kind = PRIMITIVE_OPCODES.get(block["opcode"])
    if kind is None:
        return None
    code, field = kind
    if code in (VAR, LIST) and block.get("shadow"):
        return None
    if code not in (VAR, LIST, BROADCAST) and not block.get("shadow"):
        return None
    f = block["fields"][field]
    if code in (BROADCAST, VAR, LIST):
        return [code, f["value"], f.get("id")]
    return [code, f["value"]]


def to_sb3(blocks: dict[str, Any]) -> dict[str, Any]:
    """VM in-memory blocks as sb3 ``project.json`` blocks (sb3 input is returned unchanged)."""
    if not is_vm_form(blocks):
        return blocks
    compressed = {bid: _compress(b) for bid, b in blocks.items()}
    out: dict[str, Any] = {}
    for bid, b in blocks.items():
        prim = compressed[bid]
        if prim is not None:
            if b.get("topLevel"):
                out[bid] = [*prim, b.get("x", 0), b.get("y", 0)]
            continue
        inputs: dict[str, Any] = {}
        for name, inp in b.get("inputs", {}).items():
            ref_block, ref_shadow = inp.get("block"), inp.get("shadow")

            def ref(x: str | None) -> Any:
                if x is None:
                    return None
                return compressed.get(x) or x

            if ref_block == ref_shadow:
                inputs[name] = [INPUT_SAME_BLOCK_SHADOW, ref(ref_shadow)]
            elif ref_shadow is None:
                inputs[name] = [INPUT_BLOCK_NO_SHADOW, ref(ref_block)]
            else:
                inputs[name] = [INPUT_DIFF_BLOCK_SHADOW, ref(ref_block), ref(ref_shadow)]
        fields = {
            name: [f.get("value"), f.get("id")] if "id" in f else [f.get("value"), None]
            for name, f in b.get("fields", {}).items()
        }
        entry = {
            "opcode": b["opcode"],
            "next": b.get("next"),
            "parent": b.get("parent"),
            "inputs": inputs,
            "fields": fields,
            "shadow": bool(b.get("shadow")),
            "topLevel": bool(b.get("topLevel")),
        }
        if b.get("topLevel"):
            entry["x"], entry["y"] = b.get("x", 0), b.get("y", 0)
        if b.get("mutation"):
            entry["mutation"] = b["mutation"]
        out[bid] = entry
    return out
