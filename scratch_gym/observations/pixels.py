"""Pixel observations: the full screenshot with the episode's text, or a small image for RL."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from scratch_gym.editor.page import VIEWPORT, EditorPage
from scratch_gym.observations.base import EpisodeText
from scratch_gym.spaces import UnicodeText


def screen_space(size: tuple[int, int] = VIEWPORT) -> spaces.Box:
    w, h = size
    return spaces.Box(low=0, high=255, shape=(h, w, 3), dtype=np.uint8)


class ScreenObservation:
    """LLM-facing: ``{"screenshot": (720, 1280, 3) uint8, "instruction": str, "last_action_error": str}``."""

    paint_frames = 2

    def __init__(self) -> None:
        self.space = spaces.Dict(
            {
                "screenshot": screen_space(),
                "instruction": UnicodeText(),
                "last_action_error": UnicodeText(),
            }
        )

    def observe(self, page: EditorPage, text: EpisodeText) -> dict[str, Any]:
        return {
            "screenshot": page.screenshot(),
            "instruction": text.instruction,
            "last_action_error": text.last_action_error,
        }

    def shown_elements(self) -> list[Any] | None:
        return None  # lists no elements

    def blank(self, text: EpisodeText) -> dict[str, Any]:
        """The observation when the page cannot be seen (it died): a black screen and the text."""
        return {
            "screenshot": np.zeros(self.space["screenshot"].shape, np.uint8),
            "instruction": text.instruction,
            "last_action_error": text.last_action_error,
        }


class PixelObservation:
    """RL-facing: the screenshot alone, resized to ``size`` = (width, height)."""

    paint_frames = 2

    def __init__(self, size: tuple[int, int] = (128, 72)) -> None:
        w, h = size
        if not (8 <= w <= VIEWPORT[0] and 8 <= h <= VIEWPORT[1]):
            raise ValueError(
                f"obs_size must be (width, height) within 8..1280 x 8..720, got {size}"
            )
        self.size = (int(w), int(h))
        self.space = screen_space(self.size)

    def observe(self, page: EditorPage, text: EpisodeText) -> np.ndarray:
        return page.screenshot(self.size)

    def blank(self, text: EpisodeText) -> np.ndarray:
        return np.zeros(self.space.shape, np.uint8)

    def shown_elements(self) -> list[Any] | None:
        return None  # lists no elements
