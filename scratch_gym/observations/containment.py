"""ScratchWorld's DOM + OCR fusion rule: deduplication by geometry (the paper's primitive mode).

An OCR line is kept when its confidence reaches ``min_score`` (the paper's 0.5) and no DOM element
wholly contains its box. The Blockly workspace (``canvas``) and the blocks on it never hide a line:
text on canvas blocks stays as OCR text, as ScratchWorld keeps it (its fusion skips ``canvas`` and
the blocks it names "... on canvas"). The fields of canvas blocks, which ScratchWorld does not list,
do not hide lines either. Every other element does, the stage included. Kept lines follow the DOM
elements as ``text`` elements, in the engine's order; DOM elements are left as they are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scratch_gym.ocr.base import TextBox

PAPER_MIN_SCORE = 0.5  # ScratchWorld's OCR confidence threshold (its OCR server's default)
NEVER_COVERING = frozenset({"canvas", "block"})


def hides_ocr(el: Mapping[str, Any]) -> bool:
    """Whether a DOM element hides the OCR lines inside it (not the workspace, nor canvas blocks
    and their fields)."""
    if el["type"] in NEVER_COVERING:
        return False
    return not (el.get("block_id") and el["type"] != "flyout_block")


def contains(el: Mapping[str, Any], box: TextBox) -> bool:
    """Whether ``box`` lies wholly inside the element's box (edges included)."""
    return (
        el["x"] <= box.x
        and el["y"] <= box.y
        and el["x"] + el["w"] >= box.x + box.w
        and el["y"] + el["h"] >= box.y + box.h
    )


def uncovered_lines(
    dom: Sequence[Mapping[str, Any]], ocr: Sequence[TextBox], min_score: float = PAPER_MIN_SCORE
) -> list[TextBox]:
    """The OCR lines that reach ``min_score`` and that no hiding DOM element contains."""
    covering = [el for el in dom if hides_ocr(el)]
    return [
        box
        for box in ocr
        if box.text.strip()
        and box.score >= min_score
        and not any(contains(el, box) for el in covering)
    ]
