"""The OCR interface: an engine turns an RGB image into text boxes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np


class OcrUnavailable(RuntimeError):
    """The OCR extra is not installed (``pip install scratch-gym[ocr]``) or its models are missing."""


@dataclass(frozen=True)
class TextBox:
    """One recognised text line: its text, confidence and axis-aligned box in image pixels."""

    text: str
    score: float
    x: float
    y: float
    w: float
    h: float

    @property
    def center(self) -> tuple[float, float]:
        return (self.x + self.w / 2.0, self.y + self.h / 2.0)

    def shifted(self, dx: float, dy: float) -> TextBox:
        return TextBox(self.text, self.score, self.x + dx, self.y + dy, self.w, self.h)


class OcrEngine(Protocol):
    """Recognises the text lines of an RGB uint8 image (H, W, 3). An engine may also have
    ``load()`` (load its models now) and ``detect(image)`` (line boxes, unread)."""

    name: str

    def recognize(self, image: np.ndarray) -> list[TextBox]: ...


def polygon_box(points: np.ndarray | list) -> tuple[float, float, float, float]:
    """The axis-aligned (x, y, w, h) box of a polygon given as (N, 2) points."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0)
    return float(x0), float(y0), float(x1 - x0), float(y1 - y0)
