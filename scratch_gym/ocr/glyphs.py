"""Lone glyphs that text detection misses: a pixel-level second pass.

The DB text detector rarely boxes a single character ("1" in a white input pill, the "x" and "y"
labels of the sprite pane, "if" on a block). Here the strokes of small text are found by local
contrast (a morphological black-hat for dark text on light, a top-hat for light text on colour),
joined into word-sized groups, and each group that no detected line covers becomes a candidate box,
read by the recogniser (from the pixels only, like every other line).
"""

from __future__ import annotations

import numpy as np

Box = tuple[int, int, int, int]  # x, y, w, h


def stroke_mask(bgr: np.ndarray, threshold: int = 50, kernel: int = 5) -> np.ndarray:
    """Pixels of thin strokes darker or lighter than their surroundings (uint8 0/1)."""
    import cv2

    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (kernel, kernel))
    dark = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, k) > threshold
    light = cv2.morphologyEx(gray, cv2.MORPH_TOPHAT, k) > threshold
    return (dark | light).astype(np.uint8)


def _hits(box: Box, others: list[Box]) -> bool:
    x, y, w, h = box
    return any(
        x < ox + ow and ox < x + w and y < oy + oh and oy < y + h for ox, oy, ow, oh in others
    )


def glyph_boxes(
    bgr: np.ndarray,
    covered: list[Box],
    height: tuple[int, int] = (6, 20),
    max_width: int = 60,
    gap: int = 5,
) -> list[Box]:
    """Small word-sized groups of strokes outside the ``covered`` boxes (already detected lines)."""
    import cv2

    mask = cv2.dilate(stroke_mask(bgr), np.ones((1, gap), np.uint8))
    count, _labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out: list[Box] = []
    for x, y, w, h, _area in stats[1:count]:
        box = (int(x), int(y), int(w), int(h))
        if height[0] <= h <= height[1] and 3 <= w <= max_width and not _hits(box, covered):
            out.append(box)
    return out


# (vertical, horizontal) context added around a glyph group: a lone glyph reads differently with
# different margins, so each group is read with each and the most confident read wins.
GLYPH_PADS = ((2, 2), (6, 10), (8, 16))


def padded_crop(bgr: np.ndarray, box: Box, pad: int = 0, pad_x: int | None = None) -> np.ndarray:
    """The crop around ``box`` with ``pad`` pixels of context (``pad_x`` left and right)."""
    img_h, img_w = bgr.shape[:2]
    x, y, w, h = box
    px = pad if pad_x is None else pad_x
    x0, y0 = max(0, x - px), max(0, y - pad)
    x1, y1 = min(img_w, x + w + px), min(img_h, y + h + pad)
    return np.ascontiguousarray(bgr[y0:y1, x0:x1])
