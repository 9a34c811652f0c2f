"""PP-OCRv4 line recognition straight on onnxruntime, each line at its own width.

PaddleOCR's ``TextRecognition`` pads every line to at least 48x320 pixels; most editor lines are
short ("move", "10", "x"), so here a batch is only as wide as its widest line (lines sorted by
aspect ratio), which reads short lines several times faster. The default batch is one line:
measured on editor frames, padding lines to a common width saves no CPU time and loses accuracy
(recall 0.979 with batches of 8, 0.990 with single lines). Pre-processing and CTC decoding are
PaddleOCR's: height 48, ``(x / 255 - 0.5) / 0.5``, zero padding on the right; greedy decoding with
repeats merged and blanks dropped, the score being the mean probability of the kept characters.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

HEIGHT = 48
MIN_WIDTH = 48
MAX_WIDTH = 3200


def _prepare(crop: np.ndarray, width: int) -> np.ndarray:
    """One BGR crop resized to height 48 (keeping its ratio), normalised and zero-padded to width."""
    import cv2

    h, w = crop.shape[:2]
    resized_w = min(width, math.ceil(HEIGHT * w / float(h)))
    img = cv2.resize(crop, (resized_w, HEIGHT)).astype(np.float32)
    out = np.zeros((3, HEIGHT, width), np.float32)
    out[:, :, :resized_w] = (img.transpose(2, 0, 1) / 255.0 - 0.5) / 0.5
    return out


def ctc_decode(probs: np.ndarray, characters: list[str]) -> tuple[str, float]:
    """Greedy CTC decoding of one (T, C) probability matrix; ``characters[0]`` is the blank."""
    best = probs.argmax(axis=1)
    keep = np.ones(len(best), bool)
    keep[1:] = best[1:] != best[:-1]
    keep &= best != 0
    if not keep.any():
        return "", 0.0
    text = "".join(characters[i] for i in best[keep])
    return text, float(probs.max(axis=1)[keep].mean())


class LineRecognizer:
    """Reads BGR line crops with the PP-OCRv4 recognition ONNX model (its ``character`` list).

    ``threads`` is onnxruntime's intra-op thread count (0: one per core); on a busy machine one
    thread without spin-waiting reads about twice as fast as two.
    """

    def __init__(self, onnx_path: Path, batch: int = 1, threads: int = 1) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = ort.InferenceSession(
            str(onnx_path), options, providers=["CPUExecutionProvider"]
        )
        self.input = self.session.get_inputs()[0].name
        meta = self.session.get_modelmeta().custom_metadata_map
        if "character" not in meta:
            raise ValueError(f"{onnx_path} has no 'character' metadata")
        self.characters = ["blank", *meta["character"].splitlines(), " "]
        self.batch = max(1, int(batch))

    def read(self, crops: list[np.ndarray]) -> list[tuple[str, float]]:
        """(text, score) for each crop, in order."""
        ratios = [c.shape[1] / float(max(1, c.shape[0])) for c in crops]
        order = sorted(range(len(crops)), key=ratios.__getitem__)
        out: list[tuple[str, float]] = [("", 0.0)] * len(crops)
        for start in range(0, len(order), self.batch):
            group = order[start : start + self.batch]
            width = math.ceil(HEIGHT * max(ratios[i] for i in group))
            width = min(MAX_WIDTH, max(MIN_WIDTH, width))
            x = np.stack([_prepare(crops[i], width) for i in group])
            probs = self.session.run(None, {self.input: x})[0]
            for i, p in zip(group, probs, strict=True):
                out[i] = ctc_decode(p, self.characters)
        return out
