"""Coordinate conventions of common vision-language models, converted to and from screen pixels.

* ``pixels``: the model answers in pixels of the image it was sent (the full screenshot).
* ``norm1000``: 0-1000 normalised coordinates (Qwen-VL, Qwen2-VL, CogAgent, ...).
* ``smart_resize``: pixels of the image after Qwen2.5-VL / UI-TARS ``smart_resize`` (sides rounded
  to multiples of 28 within a pixel budget); the image is sent at that size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

CONVENTIONS = ("pixels", "norm1000", "smart_resize")
FACTOR = 28
MIN_PIXELS = 100 * 28 * 28
MAX_PIXELS = 16384 * 28 * 28  # UI-TARS' setting


def smart_resize(
    height: int,
    width: int,
    factor: int = FACTOR,
    min_pixels: int = MIN_PIXELS,
    max_pixels: int = MAX_PIXELS,
) -> tuple[int, int]:
    """(height, width) as Qwen2.5-VL's image processor resizes an image (multiples of ``factor``)."""
    h_bar = max(factor, round(height / factor) * factor)
    w_bar = max(factor, round(width / factor) * factor)
    if h_bar * w_bar > max_pixels:
        beta = math.sqrt(height * width / max_pixels)
        h_bar = math.floor(height / beta / factor) * factor
        w_bar = math.floor(width / beta / factor) * factor
    elif h_bar * w_bar < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h_bar = math.ceil(height * beta / factor) * factor
        w_bar = math.ceil(width * beta / factor) * factor
    return h_bar, w_bar


@dataclass(frozen=True)
class Coordinates:
    """Maps model coordinates to screen pixels for a ``width`` x ``height`` screen."""

    convention: str = "pixels"
    width: int = 1280
    height: int = 720

    def __post_init__(self) -> None:
        if self.convention not in CONVENTIONS:
            raise ValueError(
                f"unknown coordinate convention {self.convention!r}; allowed: {', '.join(CONVENTIONS)}"
            )

    @property
    def image_size(self) -> tuple[int, int]:
        """(width, height) of the image the model should be sent."""
        if self.convention == "smart_resize":
            h, w = smart_resize(self.height, self.width)
            return w, h
        return self.width, self.height

    @property
    def model_size(self) -> tuple[float, float]:
        """The model's coordinate range (width, height)."""
        if self.convention == "norm1000":
            return 1000.0, 1000.0
        w, h = self.image_size
        return float(w), float(h)

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        mw, mh = self.model_size
        return float(x) * self.width / mw, float(y) * self.height / mh

    def to_model(self, x: float, y: float) -> tuple[float, float]:
        mw, mh = self.model_size
        return float(x) * mw / self.width, float(y) * mh / self.height

    def describe(self) -> str:
        """One sentence for the prompt."""
        mw, mh = self.model_size
        if self.convention == "norm1000":
            return (
                "Points are [x, y] normalised to 0-1000 over the screenshot "
                "(0,0 top-left, 1000,1000 bottom-right)."
            )
        return (
            f"Points are [x, y] pixels of the screenshot ({mw:.0f}x{mh:.0f}), "
            "origin top-left, x to the right, y down."
        )
