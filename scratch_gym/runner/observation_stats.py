"""What an episode's observations cost and held: the element list's size and the OCR time.

Read from each ``info`` (reset's and every step's): ``elements`` (the listed elements, OCR-only
texts marked ``source: "ocr"``) and ``ocr_ms``. The record gets the means per observation.
"""

from __future__ import annotations

from typing import Any


class ObservationTally:
    """Collects per-observation element counts and OCR times over one episode."""

    def __init__(self) -> None:
        self.sizes: list[int] = []
        self.ocr_texts: list[int] = []
        self.ocr_ms: list[float] = []

    def add(self, info: dict[str, Any]) -> None:
        elements = info.get("elements")
        if isinstance(elements, list):
            self.sizes.append(len(elements))
            self.ocr_texts.append(
                sum(isinstance(e, dict) and e.get("source") == "ocr" for e in elements)
            )
        if info.get("ocr_ms") is not None:
            self.ocr_ms.append(float(info["ocr_ms"]))

    def fields(self) -> dict[str, Any]:
        """``elements_per_step`` and ``ocr_texts_per_step`` (mean list size and OCR-only texts
        in it), ``ocr_ms_per_step`` and ``ocr_steps``; only what the episode measured."""
        out: dict[str, Any] = {}
        if self.sizes:
            out["elements_per_step"] = _mean(self.sizes)
            out["ocr_texts_per_step"] = _mean(self.ocr_texts)
        if self.ocr_ms:
            out["ocr_ms_per_step"] = _mean(self.ocr_ms)
            out["ocr_steps"] = len(self.ocr_ms)
        return out


def _mean(values: list[float] | list[int]) -> float:
    return float(sum(values)) / len(values)
