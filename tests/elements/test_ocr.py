"""OCR on the real editor (needs the ``ocr`` extra) and DOM/OCR fusion rules."""

from __future__ import annotations

import pytest

from scratch_gym.observations.elements import ElementReader, fuse, text_explains
from scratch_gym.ocr import IncrementalOcr, TextBox, make_engine, missing_packages
from tests.helpers import canvas_box, project_with_script

MISSING = missing_packages("paddleocr")
needs_ocr = pytest.mark.skipif(
    bool(MISSING), reason=f"the ocr extra is not installed (missing {', '.join(MISSING)})"
)


def _box(text, x, y, w=40, h=12):
    return TextBox(text, 0.99, x, y, w, h)


def _dom(type_, text, x, y, w, h, **extra):
    return {"type": type_, "text": text, "x": x, "y": y, "w": w, "h": h,
            "cx": x + w / 2, "cy": y + h / 2, **extra}  # fmt: skip


def test_fusion_keeps_dom_order_then_ocr_only_texts():
    dom = [
        _dom("category", "Motion", 0, 90, 60, 45),
        _dom("canvas", "", 312, 92, 470, 628),
        _dom("block", "turn ↻ 15 degrees", 500, 300, 130, 38, opcode="motion_turnright"),
        _dom("button", "", 700, 600, 36, 36),
        _dom("stage", "", 790, 92, 480, 360),
    ]
    ocr = [
        _box("Motion", 10, 115),  # the category's label: covered
        _box("tum C", 505, 310),  # the block's own label, misread: explained by the block
        _box("Hello!", 560, 305),  # other text showing on a block: kept
        _box("Hi there", 900, 200),  # a speech bubble on the stage: kept
        _box("+", 710, 610, 10, 10),  # an icon button without text: names it
        _box("Look", 400, 500),  # text on the bare canvas: kept
    ]
    fused = fuse(dom, ocr)
    assert [e.type for e in fused[:5]] == ["category", "canvas", "block", "button", "stage"]
    assert fused[3].text == "+" and fused[3].source == "dom+ocr"
    extra = [(e.text, e.source) for e in fused[5:]]
    assert extra == [("Hi there", "ocr"), ("Hello!", "ocr"), ("Look", "ocr")]
    assert [e.index for e in fused] == list(range(len(fused)))
    assert fused[5].row() == '5 text "Hi there" (920, 206) 40x12'


def test_text_explains_allows_misreads_but_not_other_words():
    assert text_explains("turn ↻ 15 degrees", "tum C")
    assert text_explains("go to random position", "random position ")
    assert not text_explains("move 10 steps", "Hello!")


@needs_ocr
def test_ocr_reads_the_category_menu_and_a_typed_value_incrementally(fresh_editor):
    page = fresh_editor
    page.load_project(project_with_script())
    page.settle()
    page.call("view.reset")
    page.settle(stop_vm=True)
    engine = make_engine("paddleocr")
    reader = ElementReader(engine)
    reader.read(page)
    boxes = list(reader.ocr._boxes)
    dom = reader.read(page)
    assert reader.ocr.stats.mode == "cached"
    for cat in [e for e in dom if e.type == "category"]:
        found = [b for b in boxes if _inside(b, cat) and text_explains(cat.text, b.text)]
        assert found, f"OCR missed the category {cat.text!r}"
    # Type a value into the lone block's input: the incremental pass reads it.
    box = canvas_box(page, "motion_turnright")
    field = next(e for e in dom if e.type == "input" and e.block_id == "tr")
    page.click(field.cx, field.cy)
    page.type_text("4321")
    page.press("Enter")
    page.settle(stop_vm=True)
    shot = page.screenshot()
    fused = reader.read(page, shot)
    assert reader.ocr.stats.mode == "incremental"
    assert reader.ocr.stats.area_fraction < 0.2
    assert any(b.text == "4321" for b in reader.ocr._boxes)
    assert any(e.type == "input" and e.text == "4321" for e in fused)
    full = IncrementalOcr(engine).recognize(shot)
    assert any(b.text == "4321" and _near(b, box) for b in full)


def _inside(box, el, slack=4):
    cx, cy = box.center
    return el.x - slack <= cx <= el.x + el.w + slack and el.y - slack <= cy <= el.y + el.h + slack


def _near(b, box):
    return abs(b.center[1] - (box["y"] + box["h"] / 2)) < box["h"]
