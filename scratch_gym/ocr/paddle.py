"""PaddleOCR backend: PP-OCRv4 text detection and recognition with the onnxruntime engine.

Detection runs as PaddleOCR's ``TextDetection`` module at a fixed scale (``det_scale``; no resizing
to a fixed side, so a small changed region costs little); lines are read by the same PP-OCRv4
recognition model on onnxruntime, each at its own width (:mod:`scratch_gym.ocr.recognizer`). No
orientation models: the editor's text is horizontal, and the line-orientation model flips words.
A second pass reads lone glyphs that detection misses (:mod:`scratch_gym.ocr.glyphs`). Reads are
cached by the line's ink (its crop less background margins), so a line that stayed costs nothing
next frame even where the detector boxes it a pixel differently. (A dragged block is drawn at a
new sub-pixel offset, so its lines are read again.)
"""

from __future__ import annotations

import hashlib
import os
from collections import OrderedDict
from pathlib import Path
from typing import Any

import numpy as np

from scratch_gym.ocr.base import OcrUnavailable, TextBox, polygon_box
from scratch_gym.ocr.glyphs import GLYPH_PADS, Box, glyph_boxes, padded_crop
from scratch_gym.ocr.recognizer import LineRecognizer
from scratch_gym.ocr.weights import DET_NAME, ocr_cache_dir, prepare_weights

DET_MAX_SIDE = 4000  # detection shrinks only images with a longer side than this


def content_key(crop: np.ndarray, trim: bool = True, tolerance: int = 24) -> str:
    """A hash of a line crop's ink: with ``trim``, the crop less its margins of background colour.

    The detector boxes an unchanged line a pixel or two differently from frame to frame (its crop
    sits elsewhere in the region read); trimmed, the crop keeps its key and reuses its read.
    """
    h, w = crop.shape[:2]
    if trim and h > 2 and w > 2:
        edge = np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]])
        bg = np.median(edge, axis=0)
        ink = (np.abs(crop.astype(np.int16) - bg.astype(np.int16)) > tolerance).any(axis=2)
        rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
        if rows.size and cols.size:
            crop = crop[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1]
    data = np.ascontiguousarray(crop).tobytes() + bytes(str(crop.shape), "ascii")
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def line_crop(bgr: np.ndarray, box: Box, min_height: int) -> np.ndarray:
    """The crop of a detected line; a box lower than ``min_height`` (a lone digit the detector
    boxed tightly) is centred in a taller crop with as much context on either side."""
    extra = max(0, min_height - box[3] + 1) // 2
    return padded_crop(bgr, box, extra, extra)


class PaddleOcrEngine:
    """Offline PP-OCRv4 mobile; ``min_score`` drops lines recognised with lower confidence.

    ``det_scale`` enlarges the image for detection only (more lone digits found, at about
    ``det_scale**2`` times the detection cost); lines are read at full resolution. ``glyphs``
    turns on the lone-glyph pass, whose reads must reach ``glyph_min_score``. ``threads`` is the
    onnxruntime thread count of both models (0: one per core).
    """

    name = "paddleocr"

    def __init__(
        self,
        min_score: float = 0.5,
        weights_root: Path | None = None,
        rec_batch: int = 1,
        cache_size: int = 4096,
        det_scale: float = 1.0,
        glyphs: bool = True,
        glyph_min_score: float = 0.8,
        threads: int = 1,
        min_line_height: int = 14,
    ) -> None:
        self.min_score = float(min_score)
        self.det_scale = float(det_scale)
        self.rec_batch = int(rec_batch)
        self.cache_size = int(cache_size)
        self.glyphs = bool(glyphs)
        self.glyph_min_score = float(glyph_min_score)
        self.threads = int(threads)
        self.min_line_height = int(min_line_height)
        self._weights_root = weights_root
        self._det: Any = None
        self._rec: LineRecognizer | None = None
        self._cache: OrderedDict[str, tuple[str, float]] = OrderedDict()
        self._last_det: tuple[str, list[Box]] = ("", [])

    def _load(self) -> LineRecognizer:
        if self._rec is not None:
            return self._rec
        os.environ.setdefault("PADDLE_PDX_CACHE_HOME", str(ocr_cache_dir() / "paddlex"))
        os.environ.setdefault("PADDLE_PDX_DISABLE_MODEL_SOURCE_CHECK", "True")
        try:
            from paddleocr import TextDetection
        except ImportError as exc:
            raise OcrUnavailable(
                f"paddleocr is not installed ({exc}): pip install 'scratch-gym[ocr]'"
            ) from exc
        dirs = prepare_weights(self._weights_root)
        self._det = TextDetection(
            model_name=DET_NAME,
            model_dir=str(dirs["det"]),
            engine="onnxruntime",
            limit_side_len=DET_MAX_SIDE,
            limit_type="max",
            engine_config={"intra_op_num_threads": self.threads},
        )
        self._rec = LineRecognizer(dirs["rec"] / "inference.onnx", self.rec_batch, self.threads)
        return self._rec

    def load(self) -> None:
        """Load the models now (the first ``recognize`` does otherwise)."""
        self._load()

    def recognize(self, image: np.ndarray) -> list[TextBox]:
        """Text lines of an RGB uint8 image, above ``min_score``."""
        self._load()
        bgr = np.ascontiguousarray(image[:, :, ::-1])
        if min(bgr.shape[:2]) < 8:
            return []
        boxes = self._detect_cached(bgr)
        crops = [line_crop(bgr, b, self.min_line_height) for b in boxes]
        out = [
            TextBox(text, score, *box)
            for box, (text, score) in zip(boxes, self._read_lines(crops), strict=True)
            if text and score >= self.min_score
        ]
        if self.glyphs:
            out.extend(self._read_glyphs(bgr, boxes))
        return out

    def detect(self, image: np.ndarray) -> list[TextBox]:
        """The detected line boxes of an RGB image, unread (empty text, score 0).

        Cheap next to :meth:`recognize`; a following ``recognize`` of the same image reuses them.
        """
        self._load()
        bgr = np.ascontiguousarray(image[:, :, ::-1])
        if min(bgr.shape[:2]) < 8:
            return []
        return [TextBox("", 0.0, *b) for b in self._detect_cached(bgr)]

    def _detect_cached(self, bgr: np.ndarray) -> list[Box]:
        """:meth:`_detect`, remembering the last image's boxes."""
        key = hashlib.blake2b(bgr.tobytes() + bytes(str(bgr.shape), "ascii")).hexdigest()
        if self._last_det[0] != key:
            self._last_det = (key, self._detect(bgr))
        return list(self._last_det[1])

    def _detect(self, bgr: np.ndarray) -> list[Box]:
        """Integer (x, y, w, h) boxes of the detected text lines, in image pixels."""
        h, w = bgr.shape[:2]
        det_input = bgr
        if self.det_scale != 1.0:
            import cv2

            det_input = cv2.resize(bgr, None, fx=self.det_scale, fy=self.det_scale,
                                   interpolation=cv2.INTER_CUBIC)  # fmt: skip
        boxes = []
        for poly in self._det.predict(det_input)[0]["dt_polys"]:
            x, y, bw, bh = (v / self.det_scale for v in polygon_box(poly))
            x0, y0 = max(0, int(np.floor(x))), max(0, int(np.floor(y)))
            x1, y1 = min(w, int(np.ceil(x + bw))), min(h, int(np.ceil(y + bh)))
            if x1 - x0 >= 2 and y1 - y0 >= 2:
                boxes.append((x0, y0, x1 - x0, y1 - y0))
        return boxes

    def _read_glyphs(self, bgr: np.ndarray, covered: list[Box]) -> list[TextBox]:
        """Lone glyphs outside the detected lines, each read with growing margins until one read
        has a letter or digit and reaches ``glyph_min_score``."""
        todo = glyph_boxes(bgr, covered)
        out = []
        for pad_y, pad_x in GLYPH_PADS:
            if not todo:
                break
            crops = [padded_crop(bgr, b, pad_y, pad_x) for b in todo]
            reads = self._read_lines(crops, trim=False)  # the margins are the point here
            left = []
            for box, (text, score) in zip(todo, reads, strict=True):
                if score >= self.glyph_min_score and any(c.isalnum() for c in text):
                    out.append(TextBox(text, score, *box))
                else:
                    left.append(box)
            todo = left
        return out

    def _read_lines(self, crops: list[np.ndarray], trim: bool = True) -> list[tuple[str, float]]:
        """Recognise line crops, reusing cached reads of the same ink (see :func:`content_key`)."""
        keys = [content_key(c, trim) for c in crops]
        todo = [i for i, k in enumerate(keys) if k not in self._cache]
        if todo:
            reads = self._load().read([crops[i] for i in todo])
            for i, (text, score) in zip(todo, reads, strict=True):
                self._cache[keys[i]] = (text.strip(), score)
        out = [self._cache[k] for k in keys]
        for k in keys:
            self._cache.move_to_end(k)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return out
