"""Element-list observations: every visible thing on screen with an index, type, text and box.

The DOM side (``bridge/elements.js``) lists blocks (canvas and flyout, with opcode and id), their
editable fields, categories, tabs, menus, buttons, inputs, sprites, the stage and the canvas, each
only where it is uncovered. OCR (optional) adds text the DOM does not know, e.g. a sprite's speech
bubble on the stage. Two fusion rules (``FUSIONS``) keep the DOM elements in their order, then
OCR-only texts:

* ``explained`` (the default): an OCR line lying on a DOM element is dropped, except on canvas
  blocks, where it is dropped only when the block's own text accounts for it (text of something
  else showing through stays); an OCR line names a blank DOM element (an icon button) it lies on.
* ``paper``: ScratchWorld's rule, deduplication by geometry (:mod:`.containment`): a line that
  reaches the confidence threshold stays unless a DOM element other than the workspace and its
  blocks wholly contains it.

Text rows (``index type text (x, y) wxh``) give the element's click point (x, y), its centre where
that is uncovered, and its box size; actions may name an element by index
(:func:`scratch_gym.actions.primitive.resolve_element`).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from difflib import SequenceMatcher
from typing import Any

import numpy as np
from gymnasium import spaces

from scratch_gym.editor.page import VIEWPORT, EditorPage
from scratch_gym.observations.base import EpisodeText
from scratch_gym.observations.containment import PAPER_MIN_SCORE, uncovered_lines
from scratch_gym.observations.pixels import ScreenObservation
from scratch_gym.ocr import IncrementalOcr, OcrEngine, TextBox, make_engine
from scratch_gym.spaces import UnicodeText

ELEMENT_TYPES: tuple[str, ...] = (
    "block",
    "flyout_block",
    "input",
    "dropdown",
    "flyout_button",
    "label",
    "checkbox",
    "category",
    "tab",
    "menu",
    "menu_item",
    "sprite",
    "stage_selector",
    "stage",
    "canvas",
    "button",
    "text",
)
CONTAINERS = frozenset({"canvas", "stage"})  # big areas whose inner text is not theirs
BLOCK_TYPES = frozenset({"block", "input", "dropdown"})  # canvas blocks and their fields
COVERED_FRACTION = 0.6  # share of an OCR box inside a DOM box for the DOM box to cover it
WORD_MATCH = 0.5  # similarity of an OCR word to a block's word for the block to explain it
FUSIONS = ("explained", "paper")


@dataclass(frozen=True)
class Element:
    """One element of the list. ``(x, y, w, h)`` is its box, ``(cx, cy)`` its click point."""

    index: int
    type: str
    text: str
    x: float
    y: float
    w: float
    h: float
    cx: float
    cy: float
    source: str = "dom"  # "dom", "ocr", or "dom+ocr" (a DOM element named by OCR)
    opcode: str | None = None
    block_id: str | None = None
    field: str | None = None
    label: str = ""
    score: float | None = None

    @property
    def center(self) -> tuple[float, float]:
        return (self.cx, self.cy)

    def row(self) -> str:
        """``index type text (x, y) wxh``; an input's label prefixes its value."""
        text = f"{self.label}: {self.text}" if self.label else self.text
        return (
            f"{self.index} {self.type} {json.dumps(text, ensure_ascii=False)} "
            f"({round(self.cx)}, {round(self.cy)}) {round(self.w)}x{round(self.h)}"
        )

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None and v != ""}


def dom_elements(page: EditorPage) -> list[dict[str, Any]]:
    """The bridge's element list (dicts), in its stable order."""
    return page.bridge.elements_list()


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"[^0-9a-z]+", text.lower()) if w]


def text_explains(dom_text: str, ocr_text: str) -> bool:
    """Does ``dom_text`` account for ``ocr_text``? Each OCR word of two or more characters must be
    close to a DOM word (misreads such as turn/tum pass); lone characters (icons) always pass."""
    dom_words = _words(dom_text)
    joined = "".join(dom_words)
    for word in _words(ocr_text):
        if len(word) < 2 or word in joined:
            continue
        if not any(SequenceMatcher(None, word, d).ratio() >= WORD_MATCH for d in dom_words):
            return False
    return True


def _inside_fraction(box: TextBox, el: dict[str, Any]) -> float:
    ix = max(0.0, min(box.x + box.w, el["x"] + el["w"]) - max(box.x, el["x"]))
    iy = max(0.0, min(box.y + box.h, el["y"] + el["h"]) - max(box.y, el["y"]))
    area = max(box.w * box.h, 1e-6)
    return ix * iy / area


def fuse(
    dom: Sequence[dict[str, Any]],
    ocr: Sequence[TextBox] = (),
    rule: str = "explained",
    min_score: float = PAPER_MIN_SCORE,
) -> list[Element]:
    """Merge DOM elements and OCR lines into one indexed list (DOM order, then OCR-only texts) by
    the fusion ``rule`` (see the module doc); ``min_score`` is the ``paper`` rule's threshold."""
    if rule == "paper":
        return _listed(dom, uncovered_lines(dom, ocr, min_score))
    if rule != "explained":
        raise ValueError(f"unknown fusion rule {rule!r}; allowed: {', '.join(FUSIONS)}")
    dom = [dict(d) for d in dom]
    named: set[int] = set()
    extra: list[TextBox] = []
    for box in ocr:
        covering = [
            i
            for i, el in enumerate(dom)
            if el["type"] not in CONTAINERS and _inside_fraction(box, el) >= COVERED_FRACTION
        ]
        if not covering:
            extra.append(box)
            continue
        blank = [i for i in covering if not dom[i].get("text")]
        if blank and all(dom[i]["type"] not in BLOCK_TYPES for i in covering):
            i = min(blank, key=lambda k: dom[k]["w"] * dom[k]["h"])
            dom[i]["text"] = (dom[i].get("ocr_text", "") + " " + box.text).strip()
            dom[i]["ocr_text"] = dom[i]["text"]
            named.add(i)
            continue
        if any(dom[i]["type"] not in BLOCK_TYPES for i in covering):
            continue
        if not any(text_explains(dom[i].get("text", ""), box.text) for i in covering):
            extra.append(box)
    extra.sort(key=lambda b: (round(b.y / 4), b.x))
    return _listed(dom, extra, named)


def _listed(
    dom: Sequence[dict[str, Any]], extra: Sequence[TextBox], named: set[int] | None = None
) -> list[Element]:
    """DOM elements (``named``: those whose text OCR gave), then the OCR lines as ``text``."""
    named = named or set()
    out = [
        Element(
            index=k,
            type=el["type"],
            text=el.get("text", ""),
            x=el["x"],
            y=el["y"],
            w=el["w"],
            h=el["h"],
            cx=el["cx"],
            cy=el["cy"],
            source="dom+ocr" if k in named else "dom",
            opcode=el.get("opcode"),
            block_id=el.get("block_id"),
            field=el.get("field"),
            label=el.get("label", ""),
        )
        for k, el in enumerate(dom)
    ]
    for b in extra:
        cx, cy = b.center
        out.append(
            Element(len(out), "text", b.text, b.x, b.y, b.w, b.h, cx, cy, "ocr", score=b.score)
        )
    return out


def element_rows(elements: Sequence[Element]) -> str:
    """The list as text, one ``index type text (x, y) wxh`` row per element."""
    return "\n".join(e.row() for e in elements)


class ElementReader:
    """Reads a page's element list; with ``ocr`` (an engine name or engine) also reads the screen.

    OCR runs only when ``ocr`` is set, once per distinct frame, re-reading only changed regions
    when ``incremental``; lines below ``min_score`` are dropped and the rest fused by ``fusion``
    (``FUSIONS``). ``ocr_ms`` is the last read's OCR time (None without OCR).
    """

    def __init__(
        self,
        ocr: str | OcrEngine | None = None,
        min_score: float = PAPER_MIN_SCORE,
        incremental: bool = True,
        fusion: str = "explained",
    ) -> None:
        if fusion not in FUSIONS:
            raise ValueError(f"unknown fusion rule {fusion!r}; allowed: {', '.join(FUSIONS)}")
        engine = make_engine(ocr, min_score) if isinstance(ocr, str) else ocr
        self.ocr = IncrementalOcr(engine) if engine is not None else None
        self.incremental = incremental
        self.min_score = float(min_score)
        self.fusion = fusion
        self.ocr_ms: float | None = None

    def read(
        self,
        page: EditorPage,
        screenshot: np.ndarray | None = None,
        dom: list[dict[str, Any]] | None = None,
    ) -> list[Element]:
        """The fused element list; ``dom`` is the page's DOM list if already read."""
        if dom is None:
            dom = dom_elements(page)
        if self.ocr is None:
            return fuse(dom)
        if screenshot is None:
            screenshot = page.screenshot()
        lines = self.ocr.recognize(screenshot, incremental=self.incremental)
        self.ocr_ms = self.ocr.stats.ms
        return fuse(dom, lines, self.fusion, self.min_score)

    def reset(self) -> None:
        self.ocr_ms = None
        if self.ocr is not None:
            self.ocr.reset()


class ScreenElementsObservation(ScreenObservation):
    """LLM-facing: the screen observation plus ``elements``, the element list as text rows.

    ``elements_info()`` gives the structured list of the last observation (for ``info``) and
    ``last_elements`` the :class:`Element` objects an ``element`` action index refers to.
    """

    def __init__(
        self,
        ocr: str | OcrEngine | None = None,
        min_score: float = PAPER_MIN_SCORE,
        max_rows: int = 100_000,
        fusion: str = "explained",
    ) -> None:
        super().__init__()
        self.reader = ElementReader(ocr, min_score, fusion=fusion)
        self.space = spaces.Dict({**self.space.spaces, "elements": UnicodeText(max_rows * 100)})
        self.last_elements: list[Element] = []

    def observe(self, page: EditorPage, text: EpisodeText) -> dict[str, Any]:
        # The DOM list first: it is read while a screenshot would wait for the next frame, and the
        # settled page shows the same either way.
        dom = dom_elements(page)
        obs = super().observe(page, text)
        self.last_elements = self.reader.read(page, obs["screenshot"], dom=dom)
        obs["elements"] = element_rows(self.last_elements)
        return obs

    def blank(self, text: EpisodeText) -> dict[str, Any]:
        self.last_elements = []
        self.reader.reset()
        return {**super().blank(text), "elements": ""}

    def shown_elements(self) -> list[Element]:
        return self.last_elements

    @property
    def ocr_ms(self) -> float | None:
        """The last observation's OCR time in ms (None without OCR)."""
        return self.reader.ocr_ms


def _opcodes() -> tuple[str, ...]:
    from scratch_gym.program import catalogue

    return tuple(sorted(spec.opcode for spec in catalogue))


def text_bucket(text: str, buckets: int) -> int:
    """0 for no text, else a stable hash bucket in 1..buckets-1."""
    if not text:
        return 0
    digest = hashlib.blake2b(text.lower().encode("utf-8"), digest_size=8).digest()
    return 1 + int.from_bytes(digest, "little") % (buckets - 1)


class ElementArrayObservation:
    """RL-facing: up to ``max_elements`` elements as fixed arrays with a mask.

    ``type`` (0 = empty slot, else 1 + index into ELEMENT_TYPES), ``box`` (x, y, w, h) and ``point``
    (cx, cy) scaled to [0, 1] by the viewport, ``opcode`` (0 = none, 1 = unknown, else 2 + index
    into the catalogue's sorted opcodes), ``text`` (hash bucket, 0 = none) and ``mask``.
    """

    paint_frames = 2  # element boxes are read from the painted page

    def __init__(
        self,
        max_elements: int = 64,
        ocr: str | OcrEngine | None = None,
        min_score: float = PAPER_MIN_SCORE,
        text_buckets: int = 1024,
        fusion: str = "explained",
    ) -> None:
        self.max_elements = n = int(max_elements)
        self.text_buckets = int(text_buckets)
        self.reader = ElementReader(ocr, min_score, fusion=fusion)
        self.opcodes = _opcodes()
        self._opcode_index = {op: i + 2 for i, op in enumerate(self.opcodes)}
        self.space = spaces.Dict(
            {
                "type": spaces.MultiDiscrete(np.full(n, len(ELEMENT_TYPES) + 1)),
                "box": spaces.Box(0.0, 1.0, shape=(n, 4), dtype=np.float32),
                "point": spaces.Box(0.0, 1.0, shape=(n, 2), dtype=np.float32),
                "opcode": spaces.MultiDiscrete(np.full(n, len(self.opcodes) + 2)),
                "text": spaces.MultiDiscrete(np.full(n, self.text_buckets)),
                "mask": spaces.MultiDiscrete(np.full(n, 2)),
            }
        )
        self.last_elements: list[Element] = []

    def observe(self, page: EditorPage, text: EpisodeText) -> dict[str, np.ndarray]:
        self.last_elements = self.reader.read(page)
        return self.encode(self.last_elements)

    def blank(self, text: EpisodeText) -> dict[str, np.ndarray]:
        self.last_elements = []
        self.reader.reset()
        return self.encode([])

    def encode(self, elements: Sequence[Element]) -> dict[str, np.ndarray]:
        n = self.max_elements
        out = {
            "type": np.zeros(n, np.int64),
            "box": np.zeros((n, 4), np.float32),
            "point": np.zeros((n, 2), np.float32),
            "opcode": np.zeros(n, np.int64),
            "text": np.zeros(n, np.int64),
            "mask": np.zeros(n, np.int8),
        }
        w, h = VIEWPORT
        scale = np.array([w, h, w, h], np.float32)
        for i, el in enumerate(elements[:n]):
            out["type"][i] = 1 + ELEMENT_TYPES.index(el.type) if el.type in ELEMENT_TYPES else 0
            out["box"][i] = np.clip(np.array([el.x, el.y, el.w, el.h], np.float32) / scale, 0, 1)
            out["point"][i] = np.clip(np.array([el.cx, el.cy], np.float32) / scale[:2], 0, 1)
            if el.opcode:
                out["opcode"][i] = self._opcode_index.get(el.opcode, 1)
            out["text"][i] = text_bucket(el.text, self.text_buckets)
            out["mask"][i] = 1
        return out

    def shown_elements(self) -> list[Element]:
        return self.last_elements

    @property
    def ocr_ms(self) -> float | None:
        """The last observation's OCR time in ms (None without OCR)."""
        return self.reader.ocr_ms
