"""The observation settings of ScratchWorld's ablation, each a preset of the screen models.

=====================  ======================================================================
setting                what the agent sees
=====================  ======================================================================
screen                 the screenshot, instruction and last error
screen_elements        the same plus ``elements``, the DOM element list (the default)
screen_elements_ocr    the same, the list fused with PaddleOCR text as the paper does it:
                       lines of confidence >= 0.5, deduplicated by geometry (``paper`` rule)
=====================  ======================================================================

``paper`` names the paper's primitive-mode observation, ``screen_elements_ocr``. Both
``gym.make(..., observation=NAME)`` and ``scratch-gym eval --observation NAME`` take these names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scratch_gym.observations.containment import PAPER_MIN_SCORE


@dataclass(frozen=True)
class ObservationSetting:
    """A named observation: the observation model it uses and the OCR arguments it is built with."""

    name: str
    observation_model: str  # the name of a ScratchEnv observation model
    summary: str  # for table titles
    defaults: dict[str, Any] = field(default_factory=dict)  # ScratchEnv arguments it sets


OBSERVATION_SETTINGS: dict[str, ObservationSetting] = {
    s.name: s
    for s in (
        ObservationSetting("screen", "screen", "screenshot only"),
        ObservationSetting("screen_elements", "screen_elements", "screenshot + DOM elements"),
        ObservationSetting(
            "screen_elements_ocr",
            "screen_elements",
            f"screenshot + DOM elements + PaddleOCR text (confidence >= {PAPER_MIN_SCORE}, "
            "deduplicated by geometry)",
            {"ocr": "paddleocr", "ocr_min_score": PAPER_MIN_SCORE, "fusion": "paper"},
        ),
    )
}
PRESETS = {"paper": "screen_elements_ocr"}  # the paper's primitive-mode observation
DEFAULT_SETTING = "screen_elements"  # what ScratchWorld-Primitive-v0 observes
OBSERVATION_NAMES = (*OBSERVATION_SETTINGS, *PRESETS)


def observation_setting(name: str) -> ObservationSetting:
    """The setting a name (or preset) stands for; ValueError naming the allowed ones."""
    setting = OBSERVATION_SETTINGS.get(PRESETS.get(name, name))
    if setting is None:
        allowed = ", ".join(OBSERVATION_SETTINGS) + " (preset: " + ", ".join(PRESETS) + ")"
        raise ValueError(f"unknown observation setting {name!r}; allowed: {allowed}")
    return setting
