"""``elements_batch``: ScratchWorld's named CSS selectors answered from scratch-gym's element list.

Their clients ask for ``name::selector`` pairs (``blocks::.blocklyDraggable``,
``inputs::input``, ...). Each selector they use is mapped onto the element types of
:mod:`scratch_gym.observations.elements` (no selector runs in the page: the list is the editor's
own, uncovered elements); a selector not in :data:`SELECTOR_TYPES` (nor a name in
:data:`NAME_TYPES`) matches nothing and is reported under ``unmapped``. Answers keep their shape:
``{"elements": [{index, position: {x, y, width, height} (integers), text, type: <name>,
block_name?}], "total_selectors", "elapsed_time"}``, indices renumbered from 0 over the whole list.
Block names follow their convention: a canvas block is ``"<opcode> on canvas"``, a palette block
its opcode.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Match = Callable[[dict[str, Any]], bool]


def _of_type(*types: str) -> Match:
    return lambda el: el["type"] in types


def _html_input(el: dict[str, Any]) -> bool:
    return el["type"] == "input" and not el.get("block_id")


# Their selectors (whitespace and quotes normalized) -> which of our elements they find.
SELECTOR_TYPES: dict[str, Match] = {
    "[data-testid=stage]": _of_type("stage"),
    ".blocklymainbackground": _of_type("canvas"),
    "input": _html_input,
    ".blocklydraggable": _of_type("block", "flyout_block"),
    ".blocklyflyoutbutton": _of_type("flyout_button"),
    ".scratchcategorymenuitem": _of_type("category"),
}
SPRITE_SELECTOR = re.compile(r"^\.sprite-selector_sprite-wrapper(_\w+)?$")
# Names their clients give those selectors, for selectors we do not recognize.
NAME_TYPES: dict[str, Match] = {
    "stage": _of_type("stage"),
    "canvas": _of_type("canvas"),
    "inputs": _html_input,
    "sprites": _of_type("sprite"),
    "blocks": _of_type("block", "flyout_block"),
    "flyout_buttons": _of_type("flyout_button"),
    "category_menu_item": _of_type("category"),
}


class SelectorError(ValueError):
    """A ``selectors`` parameter that names nothing (400)."""


def parse_selectors(selectors: str) -> list[tuple[str, str]]:
    """``"name::sel,sel2"`` -> ``[("name", "sel"), ("sel2", "sel2")]`` (their format)."""
    out = []
    for item in (s.strip() for s in selectors.split(",")):
        if not item:
            continue
        name, _, sel = item.partition("::") if "::" in item else (item, "", item)
        if sel.strip():
            out.append((name.strip(), sel.strip()))
    if not out:
        raise SelectorError("selectors is empty (give name::selector pairs, comma separated)")
    return out


def matcher(name: str, selector: str) -> Match | None:
    """Which elements a named selector finds, or None when it is not one we map."""
    key = re.sub(r"\s+", "", selector).replace("'", "").replace('"', "").lower()
    if key in SELECTOR_TYPES:
        return SELECTOR_TYPES[key]
    if SPRITE_SELECTOR.match(selector.strip()):
        return _of_type("sprite")
    return NAME_TYPES.get(name)


def block_name(el: dict[str, Any]) -> str:
    if el["type"] == "block":
        return f"{el.get('opcode') or el.get('block_id') or ''} on canvas"
    return str(el.get("opcode") or el.get("text") or "")


def their_element(el: dict[str, Any], name: str) -> dict[str, Any]:
    """One of our elements as theirs (index set later)."""
    text = " ".join(str(el.get("text") or "").split())
    if _html_input(el):
        label = " ".join(str(el.get("label") or "").split())
        text = f"{label} value: {text}" if label else f"value: {text}"
    out: dict[str, Any] = {
        "index": 0,
        "position": {
            "x": round(el["x"]),
            "y": round(el["y"]),
            "width": round(el["w"]),
            "height": round(el["h"]),
        },
        "text": text,
        "type": name.replace("\n", " ").replace("\r", " "),
    }
    if el["type"] in ("block", "flyout_block"):
        out["block_name"] = block_name(el)
    return out


def elements_batch(ours: list[dict[str, Any]], selectors: str) -> dict[str, Any]:
    """The ``elements_batch`` answer for ``selectors`` over our element list ``ours``."""
    named = parse_selectors(selectors)
    flat: list[dict[str, Any]] = []
    unmapped: list[str] = []
    for name, selector in named:
        match = matcher(name, selector)
        if match is None:
            unmapped.append(f"{name}::{selector}")
            continue
        flat.extend(their_element(el, name) for el in ours if match(el))
    for i, el in enumerate(flat):
        el["index"] = i
    out: dict[str, Any] = {"elements": flat, "total_selectors": len(named)}
    if unmapped:
        out["unmapped"] = unmapped
    return out
