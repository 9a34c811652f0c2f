"""Primitive actions and the screen places they aim at: the palette, free canvas, dropdown menus.

Every function here yields plain primitive actions (dicts for ``env.step``) and reads the editor
only through :class:`~scratch_gym.agents.primitive_oracle.view.EditorView`.
"""

from __future__ import annotations

import colorsys
from collections.abc import Iterator
from typing import Any

from scratch_gym.agents.primitive_oracle.view import EditorView

Action = dict[str, Any]
Point = tuple[float, float]

CATEGORY_NAMES = {"data": "Variables", "procedures": "My Blocks", "pen": "Pen"}
FLYOUT_POINT = (180.0, 400.0)  # where the wheel scrolls the palette
FLYOUT_TOP, FLYOUT_BOTTOM = 100.0, 700.0
TRASH_POINT = (150.0, 400.0)  # dropping a block on the palette deletes it
EDGE = 40.0  # keep points this far inside the code area
MAX_SCROLLS = 6


class OracleError(RuntimeError):
    """The editor did not do what the oracle planned, and repairing it failed too."""


def click(point: Point) -> Action:
    return {"action_type": "click", "start": [float(point[0]), float(point[1])]}


def drag(start: Point, end: Point) -> Action:
    return {
        "action_type": "drag",
        "start": [float(start[0]), float(start[1])],
        "end": [float(end[0]), float(end[1])],
    }


def scroll(at: Point, dy: float, dx: float = 0.0) -> Action:
    return {"action_type": "scroll", "start": [float(at[0]), float(at[1])], "scroll": [dx, dy]}


def key(name: str) -> Action:
    return {"action_type": "key", "keys": name}


def hotkey(keys: str) -> Action:
    return {"action_type": "hotkey", "keys": keys}


def type_text(text: str) -> Action:
    return {"action_type": "type", "text": text}


def centre(element: dict[str, Any]) -> Point:
    return (element["cx"], element["cy"])


def click_on(element: dict[str, Any] | None, missing: str) -> Action:
    """A click on ``element``'s centre; OracleError ``no <missing>`` when it was not found."""
    if element is None:
        raise OracleError(f"no {missing}")
    return click(centre(element))


def find(els: list[dict[str, Any]], **want: Any) -> dict[str, Any] | None:
    for e in els:
        if all(e.get(k) == v for k, v in want.items()):
            return e
    return None


def category_label(opcode: str) -> str:
    from scratch_gym.program import catalogue

    category = catalogue.block(opcode).category
    return CATEGORY_NAMES.get(category, category.capitalize())


def open_category(view: EditorView, label: str) -> Iterator[Action]:
    """Click a palette category (which scrolls the palette to its start); an extension's category
    that is not there yet is added first (Add Extension, then its card)."""
    cat = find(view.elements(), type="category", text=label)
    if cat is None:
        button = find(view.elements(), type="button", text="Add Extension")
        yield click_on(button, f"palette category {label!r} and no Add Extension button")
        card = next(
            (
                e
                for e in view.elements()
                if e["type"] == "button" and e["text"].startswith(label + " ")
            ),
            None,
        )
        yield click_on(
            card, f"palette category {label!r} and no such extension"
        )  # adding an extension selects its category
        return
    yield click(centre(cat))


def palette_block(view: EditorView, label: str, match: Any) -> Iterator[Action]:
    """Bring the first palette block for which ``match(geometry)`` holds into view (clicking its
    category when it is far off, then scrolling the palette); returns it."""
    clicked = False
    for _ in range(MAX_SCROLLS):
        blocks = [b for b in view.flyout() if match(b)]
        if not blocks:
            if not clicked:  # the palette rebuilds some categories when they are shown
                clicked = True
                yield from open_category(view, label)
                continue
            raise OracleError(f"no block in the {label} palette matches")
        b = blocks[0]
        if b["grab"] is not None and FLYOUT_TOP <= b["y"] and b["y"] + b["h"] <= FLYOUT_BOTTOM:
            return b
        dy = b["y"] - 250.0
        if abs(dy) > 800 and not clicked:  # far off: the category's start is nearer
            clicked = True
            yield from open_category(view, label)
        else:
            yield scroll(FLYOUT_POINT, max(-4000.0, min(4000.0, dy)))
    raise OracleError(f"a block of the {label} palette did not come into view")


def area_middle(area: dict[str, Any]) -> Point:
    """The middle of the visible code area (where scrolls are done)."""
    return (area["x"] + area["w"] / 2, area["y"] + area["h"] / 2)


def in_area(area: dict[str, Any], p: Point, margin: float = EDGE) -> bool:
    """Is ``p`` inside the visible code area (``margin`` from the right and bottom edges)?"""
    return (
        area["x"] + 8 <= p[0] <= area["x"] + area["w"] - margin
        and area["y"] + 10 <= p[1] <= area["y"] + area["h"] - margin
    )


def free_spot(ws: dict[str, Any], size: Point = (230.0, 160.0)) -> Point | None:
    """A point of the visible code area with ``size`` of empty canvas below-right of it."""
    area = ws["area"]
    boxes = [
        (b["x"] - 30, b["y"] - 30, b["x"] + b["w"] + 30, b["y"] + b["h"] + 30) for b in ws["blocks"]
    ]
    x0, y0 = area["x"] + EDGE, area["y"] + 30
    x1, y1 = area["x"] + area["w"] - size[0] - 50, area["y"] + area["h"] - size[1]
    y = y0
    while y <= y1:
        x = x0
        while x <= x1:
            if not any(
                x < bx1 and x + size[0] > bx0 and y < by1 and y + size[1] > by0
                for bx0, by0, bx1, by1 in boxes
            ):
                return (x, y)
            x += 20
        y += 20
    return None


def colour_spot(image: Any, stage: dict[str, Any], colour: str) -> Point | None:
    """A screen point inside the stage where a 5x5 patch has exactly ``colour`` (#rrggbb), the
    one nearest the middle of all such points; None if there is none."""
    import numpy as np

    rgb = np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)])
    x0, y0 = int(stage["x"]), int(stage["y"])
    region = np.asarray(image)[y0 : y0 + int(stage["h"]), x0 : x0 + int(stage["w"]), :3]
    same = (np.abs(region.astype(int) - rgb).sum(axis=2) == 0).astype(np.int32)
    if not same.any():
        return None
    c = same.cumsum(0).cumsum(1)
    c = np.pad(c, ((1, 0), (1, 0)))
    full = c[5:, 5:] - c[:-5, 5:] - c[5:, :-5] + c[:-5, :-5] == 25
    ys, xs = np.nonzero(full)
    if len(ys) == 0:
        return None
    cy, cx = ys.mean(), xs.mean()
    k = int(np.argmin((ys - cy) ** 2 + (xs - cx) ** 2))
    return (float(x0 + xs[k] + 2.5), float(y0 + ys[k] + 2.5))


def menu_pick(view: EditorView, labels: list[str]) -> Iterator[Action]:
    """Click the first open-menu item whose text is in ``labels`` (scrolling the menu if needed);
    returns the label clicked."""
    for _ in range(MAX_SCROLLS * 3):
        items = [e for e in view.elements() if e["type"] == "menu_item"]
        for label in labels:
            item = find(items, text=label)
            if item is not None:
                yield click(centre(item))
                return label
        if not items:
            raise OracleError(f"no menu open to pick {labels[0]!r} from")
        last = max(items, key=lambda e: e["y"])
        yield scroll((last["cx"], last["cy"]), 200.0)
    raise OracleError(f"menu item {labels[0]!r} not found")


def slider_values(colour: str) -> list[float]:
    """The colour picker's slider values for ``#rrggbb``: Color (0-360), Saturation (0-1) and
    Brightness (0-255), the editor's HSV."""
    text = colour.lstrip("#")
    if len(text) != 6:
        raise OracleError(f"{colour!r} is not a #rrggbb colour")
    r, g_, b = (int(text[i : i + 2], 16) / 255 for i in (0, 2, 4))
    h, s, v = colorsys.rgb_to_hsv(r, g_, b)
    return [round(h * 360), round(s, 3), round(v * 255)]


def slider_point(slider: dict[str, Any], value: float) -> Point:
    """Where a click on a range slider's track sets ``value`` (the thumb is about as wide as
    the track is high, and its centre spans the track less half a thumb at each end)."""
    thumb = slider["h"]
    frac = (value - slider["min"]) / ((slider["max"] - slider["min"]) or 1)
    x = slider["x"] + thumb / 2 + frac * max(slider["w"] - thumb, 1)
    return (x, slider["y"] + slider["h"] / 2)
