"""Incremental OCR: recognise only the parts of a frame that changed since the previous frame.

A drag changes two small areas of the editor (where the block was and where it lands); the rest of
the frame keeps its text. :class:`IncrementalOcr` diffs the new frame against the last one, groups
the changed pixels into padded rectangles, grows each rectangle until it holds every previous text
line it touches (so no line is read in part), recognises the crops, and keeps the previous lines
outside them. Past ``full_fraction`` of the frame changed (tab switch, scroll) it reads the whole
frame. Results are cached per frame (identical frames cost one hash).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field

import numpy as np

from scratch_gym.ocr.base import OcrEngine, TextBox

Rect = tuple[int, int, int, int]  # x0, y0, x1, y1 (exclusive)


@dataclass
class OcrStats:
    """How the last frame was read: ``mode`` is cached, full or incremental."""

    mode: str = ""
    ms: float = 0.0
    regions: list[Rect] = field(default_factory=list)
    area_fraction: float = 0.0


def frame_key(image: np.ndarray) -> str:
    return hashlib.blake2b(np.ascontiguousarray(image).data, digest_size=16).hexdigest()


def changed_rects(
    old: np.ndarray, new: np.ndarray, cell: int = 8, threshold: int = 12
) -> list[Rect]:
    """Rectangles (in cells, merged by 8-connectivity after a one-cell dilation) of changed pixels."""
    diff = np.abs(old.astype(np.int16) - new.astype(np.int16)).max(axis=2) > threshold
    h, w = diff.shape
    gh, gw = -(-h // cell), -(-w // cell)
    padded = np.zeros((gh * cell, gw * cell), bool)
    padded[:h, :w] = diff
    grid = padded.reshape(gh, cell, gw, cell).any(axis=(1, 3))
    if not grid.any():
        return []
    dil = grid.copy()
    dil[1:, :] |= grid[:-1, :]
    dil[:-1, :] |= grid[1:, :]
    dil[:, 1:] |= dil[:, :-1].copy()
    dil[:, :-1] |= dil[:, 1:].copy()
    return [
        (x0 * cell, y0 * cell, min(x1 * cell, w), min(y1 * cell, h))
        for x0, y0, x1, y1 in _components(dil)
    ]


def _components(grid: np.ndarray) -> list[Rect]:
    """Bounding boxes (x0, y0, x1, y1) of the 8-connected components of a boolean grid."""
    import cv2

    count, _labels, stats, _ = cv2.connectedComponentsWithStats(grid.astype(np.uint8), 8)
    return [(int(x), int(y), int(x + w), int(y + h)) for x, y, w, h, _area in stats[1:count]]


def _overlaps(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _union(a: Rect, b: Rect) -> Rect:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _box_rect(box: TextBox) -> Rect:
    return (int(box.x), int(box.y), int(np.ceil(box.x + box.w)), int(np.ceil(box.y + box.h)))


def grow_regions(
    rects: list[Rect], boxes: list[TextBox], pad: int, size: tuple[int, int]
) -> list[Rect]:
    """Pad the rectangles, absorb the text boxes they touch, and merge overlapping ones."""
    w, h = size
    regions = [(max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad))
               for x0, y0, x1, y1 in rects]  # fmt: skip
    box_rects = [_box_rect(b) for b in boxes]
    changed = True
    while changed:
        changed = False
        merged: list[Rect] = []
        for r in regions:
            for br in box_rects:
                if _overlaps(r, br) and _union(r, br) != r:
                    r = _union(r, br)
                    changed = True
            for i, m in enumerate(merged):
                if _overlaps(r, m):
                    merged[i] = _union(r, m)
                    changed = True
                    break
            else:
                merged.append(r)
        regions = merged
    return regions


def _same_line(a: TextBox, b: TextBox) -> bool:
    """Two reads of one line (regions that grew into each other): same text, overlapping boxes."""
    return a.text == b.text and _overlaps(_box_rect(a), _box_rect(b))


class IncrementalOcr:
    """Wraps an engine: per-frame cache, and re-reading only the regions that changed."""

    def __init__(
        self,
        engine: OcrEngine,
        pad: int = 16,
        full_fraction: float = 0.4,
        edge_margin: int = 2,
        grow: int = 48,
    ) -> None:
        self.engine = engine
        self.pad = pad
        self.full_fraction = full_fraction
        self.edge_margin = edge_margin
        self.grow = grow
        self.stats = OcrStats()
        self._frame: np.ndarray | None = None
        self._key = ""
        self._boxes: list[TextBox] = []

    def reset(self) -> None:
        """Forget the previous frame (the next call reads the whole frame)."""
        self._frame, self._key, self._boxes = None, "", []

    def recognize(self, image: np.ndarray, incremental: bool = True) -> list[TextBox]:
        """The frame's text lines; ``stats`` says how it was read and in how many ms (loading
        an engine's models, once, is not counted)."""
        load = getattr(self.engine, "load", None)
        if load is not None:
            load()
        t0 = time.perf_counter()
        key = frame_key(image)
        if key == self._key:
            self.stats = OcrStats("cached", (time.perf_counter() - t0) * 1000)
            return list(self._boxes)
        h, w = image.shape[:2]
        regions: list[Rect] = []
        mode = "full"
        if incremental and self._frame is not None and self._frame.shape == image.shape:
            regions = grow_regions(changed_rects(self._frame, image), self._boxes, self.pad, (w, h))
            area = sum((r[2] - r[0]) * (r[3] - r[1]) for r in regions)
            if area <= self.full_fraction * w * h:
                mode = "incremental"
        if mode == "full":
            boxes = self.engine.recognize(image)
            regions = [(0, 0, w, h)]
        else:
            read = [self._read_region(image, r) for r in regions]
            regions = [r for r, _ in read]
            boxes = [b for b in self._boxes if not any(_overlaps(_box_rect(b), r) for r in regions)]
            for _, found in read:
                boxes.extend(b for b in found if not any(_same_line(b, k) for k in boxes))
        boxes.sort(key=lambda b: (round(b.y), b.x))
        self._frame, self._key, self._boxes = image.copy(), key, boxes
        area = sum((r[2] - r[0]) * (r[3] - r[1]) for r in regions) / float(w * h)
        self.stats = OcrStats(mode, (time.perf_counter() - t0) * 1000, regions, area)
        return list(boxes)

    def _read_region(self, image: np.ndarray, region: Rect) -> tuple[Rect, list[TextBox]]:
        """Recognise one crop, grown once where a line touches an inner edge (and then over the
        previous lines the grown crop touches, so none is read in part).

        With an engine that can ``detect`` without reading, the growth is decided on the detected
        boxes, so lines cut by the first crop are never read.
        """
        h, w = image.shape[:2]
        x0, y0, x1, y1 = region
        probe = getattr(self.engine, "detect", None) or self.engine.recognize
        lines = [b.shifted(x0, y0) for b in probe(image[y0:y1, x0:x1])]
        grown = self._grown(region, lines, (w, h))
        if grown == region and probe == self.engine.recognize:
            return region, lines
        gx0, gy0, gx1, gy1 = grown
        found = [b.shifted(gx0, gy0) for b in self.engine.recognize(image[gy0:gy1, gx0:gx1])]
        return grown, found

    def _grown(self, region: Rect, lines: list[TextBox], size: tuple[int, int]) -> Rect:
        """``region`` grown by ``grow`` past each inner edge a line touches, then over the
        previous lines it touches; ``region`` itself when no line touches an edge."""
        w, h = size
        x0, y0, x1, y1 = region
        m, g = self.edge_margin, self.grow
        grown = list(region)
        for b in lines:
            if x0 > 0 and b.x <= x0 + m:
                grown[0] = max(0, x0 - g)
            if y0 > 0 and b.y <= y0 + m:
                grown[1] = max(0, y0 - g)
            if x1 < w and b.x + b.w >= x1 - m:
                grown[2] = min(w, x1 + g)
            if y1 < h and b.y + b.h >= y1 - m:
                grown[3] = min(h, y1 + g)
        if tuple(grown) == region:
            return region
        return grow_regions([(grown[0], grown[1], grown[2], grown[3])], self._boxes, 0, size)[0]
