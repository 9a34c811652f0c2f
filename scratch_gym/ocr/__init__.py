"""OCR behind a small interface (optional extra: ``pip install 'scratch-gym[ocr]'``).

``make_engine("paddleocr")`` (default) or ``make_engine("rapidocr")`` returns an :class:`OcrEngine`;
:class:`IncrementalOcr` wraps one with a per-frame cache and re-reads only changed regions.
Engines load their models lazily, offline, on the first frame.
"""

from __future__ import annotations

import importlib.util

from scratch_gym.ocr.base import OcrEngine, OcrUnavailable, TextBox
from scratch_gym.ocr.incremental import IncrementalOcr, OcrStats

ENGINES = ("paddleocr", "rapidocr")
_REQUIRED = {"paddleocr": ("paddleocr", "onnxruntime", "rapidocr_onnxruntime"),
             "rapidocr": ("rapidocr_onnxruntime", "onnxruntime")}  # fmt: skip

__all__ = [
    "ENGINES",
    "IncrementalOcr",
    "OcrEngine",
    "OcrStats",
    "OcrUnavailable",
    "TextBox",
    "make_engine",
    "missing_packages",
]


def missing_packages(name: str = "paddleocr") -> list[str]:
    """The Python modules an engine needs that are not installed (empty when it can run)."""
    if name not in _REQUIRED:
        raise ValueError(f"unknown OCR engine {name!r}; allowed: {', '.join(ENGINES)}")
    return [m for m in _REQUIRED[name] if importlib.util.find_spec(m) is None]


def make_engine(name: str = "paddleocr", min_score: float = 0.5, **options: float) -> OcrEngine:
    """An OCR engine; raises OcrUnavailable when the ``ocr`` extra is not installed.

    ``options`` go to the PaddleOCR engine (``det_scale``, ``cache_size``, ``rec_batch``,
    ``glyphs``, ``glyph_min_score``, ``threads``, ``min_line_height``).
    """
    missing = missing_packages(name)
    if missing:
        raise OcrUnavailable(
            f"OCR engine {name!r} needs {', '.join(missing)}: pip install 'scratch-gym[ocr]'"
        )
    if name == "paddleocr":
        from scratch_gym.ocr.paddle import PaddleOcrEngine

        return PaddleOcrEngine(min_score, **options)
    from scratch_gym.ocr.rapid import RapidOcrEngine

    return RapidOcrEngine(min_score)
