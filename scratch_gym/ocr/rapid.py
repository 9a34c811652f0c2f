"""RapidOCR backend (``rapidocr-onnxruntime`` 1.4.x, the same PP-OCRv4 weights, its own pipeline)."""

from __future__ import annotations

from typing import Any

import numpy as np

from scratch_gym.ocr.base import OcrUnavailable, TextBox, polygon_box


class RapidOcrEngine:
    """RapidOCR without the angle classifier, detection box threshold 0.3."""

    name = "rapidocr"

    def __init__(self, min_score: float = 0.5) -> None:
        self.min_score = float(min_score)
        self._engine: Any = None

    def _load(self) -> Any:
        if self._engine is None:
            try:
                from rapidocr_onnxruntime import RapidOCR
            except ImportError as exc:
                raise OcrUnavailable(
                    f"rapidocr-onnxruntime is not installed ({exc}): pip install 'scratch-gym[ocr]'"
                ) from exc
            self._engine = RapidOCR(det_box_thresh=0.3, text_score=self.min_score)
        return self._engine

    def load(self) -> None:
        """Load the models now (the first ``recognize`` does otherwise)."""
        self._load()

    def recognize(self, image: np.ndarray) -> list[TextBox]:
        bgr = np.ascontiguousarray(image[:, :, ::-1])
        result, _ = self._load()(bgr, use_cls=False)
        out = []
        for poly, text, score in result or []:
            text = str(text).strip()
            if text and float(score) >= self.min_score:
                out.append(TextBox(text, float(score), *polygon_box(poly)))
        return out
