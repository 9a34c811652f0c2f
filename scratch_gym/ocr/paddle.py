"""PaddleOCR backend: PP-OCRv4 text detection and recognition with the onnxruntime engine.

The detection and recognition models run as PaddleOCR's ``TextDetection`` and ``TextRecognition``
modules (no orientation models: the editor's text is horizontal, and the line-orientation model
flips words). Recognised lines are cached by their pixels, so a line that moved (a dragged block)
or stayed costs no recognition on the next frame.
"""

from __future__ import annotations

import hashlib
import os
from collections import OrderedDict
from pathlib import Path
from typing import Any

import numpy as np

from scratch_gym.ocr.base import OcrUnavailable, TextBox, polygon_box
from scratch_gym.ocr.models import DET_NAME, REC_NAME, ocr_cache_dir, prepare_models


class PaddleOcrEngine:
    """Offline PP-OCRv4 mobile; ``min_score`` drops lines recognised with lower confidence.

    ``det_scale`` > 1 enlarges the image for detection only (finds more lone digits in input
    pills, at about ``det_scale**2`` times the detection cost); lines are read at full resolution.
    """

    name = "paddleocr"

    def __init__(
        self,
        min_score: float = 0.5,
        model_root: Path | None = None,
        rec_batch: int = 8,
        cache_size: int = 4096,
        det_scale: float = 1.0,
    ) -> None:
        self.min_score = float(min_score)
        self.det_scale = float(det_scale)
        self.rec_batch = int(rec_batch)
        self.cache_size = int(cache_size)
        self._model_root = model_root
        self._det: Any = None
        self._rec: Any = None
        self._cache: OrderedDict[str, tuple[str, float]] = OrderedDict()

    def _load(self) -> None:
        if self._det is not None:
            return
        os.environ.setdefault("PADDLE_PDX_CACHE_HOME", str(ocr_cache_dir() / "paddlex"))
        os.environ.setdefault("PADDLE_PDX_DISABLE_MODEL_SOURCE_CHECK", "True")
        try:
            from paddleocr import TextDetection, TextRecognition
        except ImportError as exc:
            raise OcrUnavailable(
                f"paddleocr is not installed ({exc}): pip install 'scratch-gym[ocr]'"
            ) from exc
        dirs = prepare_models(self._model_root)
        self._det = TextDetection(
            model_name=DET_NAME, model_dir=str(dirs["det"]), engine="onnxruntime"
        )
        self._rec = TextRecognition(
            model_name=REC_NAME, model_dir=str(dirs["rec"]), engine="onnxruntime"
        )

    def recognize(self, image: np.ndarray) -> list[TextBox]:
        """Text lines of an RGB uint8 image, above ``min_score``."""
        self._load()
        bgr = np.ascontiguousarray(image[:, :, ::-1])
        h, w = bgr.shape[:2]
        if h < 8 or w < 8:
            return []
        det_input = bgr
        if self.det_scale != 1.0:
            import cv2

            det_input = cv2.resize(bgr, None, fx=self.det_scale, fy=self.det_scale,
                                   interpolation=cv2.INTER_CUBIC)  # fmt: skip
        polys = self._det.predict(det_input)[0]["dt_polys"]
        boxes, crops = [], []
        for poly in polys:
            x, y, bw, bh = (v / self.det_scale for v in polygon_box(poly))
            x0, y0 = max(0, int(np.floor(x))), max(0, int(np.floor(y)))
            x1, y1 = min(w, int(np.ceil(x + bw))), min(h, int(np.ceil(y + bh)))
            if x1 - x0 >= 2 and y1 - y0 >= 2:
                boxes.append((x0, y0, x1 - x0, y1 - y0))
                crops.append(np.ascontiguousarray(bgr[y0:y1, x0:x1]))
        reads = self._read_lines(crops)
        return [
            TextBox(text, score, *box)
            for box, (text, score) in zip(boxes, reads, strict=True)
            if text and score >= self.min_score
        ]

    def _read_lines(self, crops: list[np.ndarray]) -> list[tuple[str, float]]:
        """Recognise line crops, reusing cached reads of identical pixels."""
        keys = [
            hashlib.blake2b(c.tobytes() + bytes(str(c.shape), "ascii"), digest_size=16).hexdigest()
            for c in crops
        ]
        todo = [i for i, k in enumerate(keys) if k not in self._cache]
        if todo:
            results = self._rec.predict([crops[i] for i in todo], batch_size=self.rec_batch)
            for i, res in zip(todo, results, strict=True):
                self._cache[keys[i]] = (str(res["rec_text"]).strip(), float(res["rec_score"]))
        out = []
        for k in keys:
            self._cache.move_to_end(k)
            out.append(self._cache[k])
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return out
