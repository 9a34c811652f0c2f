"""OCR on the real editor (needs the ``ocr`` extra) and DOM/OCR fusion rules."""

from __future__ import annotations

import numpy as np
import pytest

from scratch_gym.observations.elements import ElementReader, fuse, text_explains
from scratch_gym.ocr import IncrementalOcr, TextBox, make_engine, missing_packages
from scratch_gym.ocr.paddle import content_key, line_crop
from scratch_gym.ocr.recognizer import ctc_decode
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


def test_paper_fusion_drops_only_lines_wholly_inside_a_dom_element_off_the_workspace():
    dom = [
        _dom("category", "Motion", 0, 90, 60, 45),
        _dom("canvas", "", 312, 92, 470, 628),
        _dom("block", "turn ↻ 15 degrees", 500, 300, 130, 38, opcode="motion_turnright"),
        _dom("input", "15", 580, 305, 30, 28, block_id="tr", field="NUM"),
        _dom("flyout_block", "move 10 steps", 70, 120, 100, 38, opcode="motion_movesteps"),
        _dom("stage", "", 790, 92, 480, 360),
    ]
    low = TextBox("Sensing", 0.49, 400, 600, 40, 12)  # below the paper's 0.5
    ocr = [
        _box("Motion", 10, 115),  # inside the category: dropped
        _box("move", 75, 130),  # inside a flyout block: dropped
        _box("tum", 505, 310),  # on a canvas block: kept, as ScratchWorld keeps it
        _box("15", 582, 310, 20, 12),  # in a canvas block's field: kept
        _box("Hi there", 900, 200),  # on the stage: dropped (the stage is a DOM element)
        _box("Look", 400, 500),  # on the bare workspace: kept
        _box("Motio", 50, 130),  # sticks out of the category: kept
        low,
    ]
    fused = fuse(dom, ocr, rule="paper")
    assert [e.text for e in fused[:6]] == [d["text"] for d in dom]  # DOM unchanged, first
    assert all(e.source == "dom" for e in fused[:6])
    assert [(e.type, e.text, e.source) for e in fused[6:]] == [
        ("text", "tum", "ocr"), ("text", "15", "ocr"), ("text", "Look", "ocr"),
        ("text", "Motio", "ocr"),
    ]  # fmt: skip
    assert [e.index for e in fused] == list(range(len(fused)))
    assert len(fuse(dom, [low], rule="paper", min_score=0.4)) == len(dom) + 1
    with pytest.raises(ValueError, match="allowed: explained, paper"):
        fuse(dom, ocr, rule="nearest")


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


def test_ctc_decode_merges_repeats_and_drops_blanks():
    chars = ["blank", "a", "b", " "]
    steps = [0, 1, 1, 0, 1, 2, 2, 0, 3, 2]  # "a", "a", "b", " ", "b"
    probs = np.full((len(steps), 4), 0.05)
    probs[np.arange(len(steps)), steps] = 0.85
    probs[4, 1] = 0.65
    text, score = ctc_decode(probs, chars)
    assert text == "aab b"
    assert score == pytest.approx((0.85 * 4 + 0.65) / 5)
    assert ctc_decode(np.eye(4)[[0, 0]], chars) == ("", 0.0)


def _ink(margin_x, margin_y, glyph=((2, 2), (3, 5))):
    crop = np.full((10 + 2 * margin_y, 12 + 2 * margin_x, 3), 240, np.uint8)
    for y, x in glyph:
        crop[margin_y + y, margin_x + x : margin_x + x + 4] = (40, 50, 60)
    return crop


def test_content_key_ignores_background_margins_but_not_ink():
    assert content_key(_ink(2, 1)) == content_key(_ink(5, 4))
    assert content_key(_ink(2, 1)) != content_key(_ink(2, 1, glyph=((2, 2), (4, 5))))


def test_a_low_line_box_is_read_from_a_taller_crop_centred_on_it():
    img = np.zeros((100, 100, 3), np.uint8)
    assert line_crop(img, (40, 40, 10, 7), 14).shape[:2] == (15, 18)
    assert line_crop(img, (40, 40, 30, 16), 14).shape[:2] == (16, 30)
    assert line_crop(img, (0, 0, 10, 7), 14).shape[:2] == (11, 14)  # clipped at the image edge


class _LinesEngine:
    """A fake engine over a fixed set of text lines (image coordinates): a crop reads the lines
    it overlaps, cut to the crop."""

    name = "fake"

    def __init__(self, lines):
        self.lines = lines
        self.crops = []

    def recognize(self, image):
        x0, y0 = image.ox, image.oy
        h, w = image.shape[:2]
        self.crops.append((x0, y0, x0 + w, y0 + h))
        out = []
        for b in self.lines:
            bx0, by0 = max(b.x, x0), max(b.y, y0)
            bx1, by1 = min(b.x + b.w, x0 + w), min(b.y + b.h, y0 + h)
            if bx0 < bx1 and by0 < by1:
                whole = (bx0, by0, bx1, by1) == (b.x, b.y, b.x + b.w, b.y + b.h)
                text = b.text if whole else b.text[:2]
                out.append(TextBox(text, 0.9, bx0 - x0, by0 - y0, bx1 - bx0, by1 - by0))
        return out


class _Frame(np.ndarray):
    """An image that knows where its crops come from (for the fake engine)."""

    ox = oy = 0

    def __getitem__(self, key):
        out = super().__getitem__(key)
        if isinstance(key, tuple) and len(key) == 2 and all(isinstance(k, slice) for k in key):
            out.oy, out.ox = self.oy + (key[0].start or 0), self.ox + (key[1].start or 0)
        return out


def test_incremental_never_reads_a_line_in_part():
    old_line = _box("go to x:", 40, 280, w=70, h=14)
    engine = _LinesEngine([old_line, _box("say", 500, 500)])
    inc = IncrementalOcr(engine, pad=4)
    first = np.full((720, 1280, 3), 250, np.uint8).view(_Frame)
    assert [b.text for b in inc.recognize(first)] == ["go to x:", "say"]
    # A new line appears; only part of it changes pixels, so the first crop cuts it and grows
    # over the old line, which must then be read whole, not cut by the grown crop.
    engine.lines.append(_box("glide secs", 100, 300, w=80, h=14))
    second = first.copy().view(_Frame)
    second[300:314, 150:170] = 0
    boxes = inc.recognize(second)
    assert inc.stats.mode == "incremental"
    assert sorted(b.text for b in boxes) == ["glide secs", "go to x:", "say"]
    assert all(c[2] - c[0] < 1280 for c in engine.crops[1:])


@needs_ocr
def test_ocr_reads_lone_glyphs_in_inputs_and_the_sprite_pane(fresh_editor):
    page = fresh_editor
    project = project_with_script()
    project["targets"][1]["blocks"]["tr"]["inputs"]["DEGREES"] = [1, [4, "5"]]
    page.load_project(project)
    page.settle()
    page.call("view.reset")
    page.settle(stop_vm=True)
    shot = page.screenshot()
    block = canvas_box(page, "motion_turnright")
    atoms = page.call("elements.texts")
    digit = [a for a in atoms if a["text"].strip() == "5" and _overlap(a, block)]
    labels = [a for a in atoms if a["text"].strip() in ("x", "y") and a["x"] > 800]
    assert len(digit) == 1 and sorted(a["text"].strip() for a in labels) == ["x", "y"]
    boxes = make_engine("paddleocr").recognize(shot)
    for atom in digit + labels:
        want = atom["text"].strip()
        assert any(_overlap(atom, vars(b)) and want in b.text.lower() for b in boxes), (
            f"OCR missed the lone {want!r} at ({atom['x']:.0f}, {atom['y']:.0f})"
        )


def _overlap(a, b):
    return (
        a["x"] < b["x"] + b["w"]
        and b["x"] < a["x"] + a["w"]
        and (a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"])
    )
