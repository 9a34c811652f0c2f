"""What every observation model provides to the environment."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from gymnasium import spaces

from scratch_gym.editor.page import EditorPage


@dataclass
class EpisodeText:
    """Text the environment knows about the episode, for observation models that show it."""

    instruction: str = ""
    last_action_error: str = ""
    last_action_result: str = ""


class ObservationModel(Protocol):
    space: spaces.Space
    paint_frames: int
    """Animation frames that must pass unchanged before ``observe`` reads the page: 2 for what
    shows the screen (the frame the agent sees is painted), 0 for text read from the VM."""

    def observe(self, page: EditorPage, text: EpisodeText) -> Any: ...

    def blank(self, text: EpisodeText) -> Any:
        """An observation for when the page cannot be read (it died)."""
        ...

    def shown_elements(self) -> Sequence[Any] | None:
        """The elements the last observation listed (what an action's element index refers to,
        and ``info["elements"]``), or None for a model that lists none."""
        ...
