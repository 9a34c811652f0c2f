"""Perception questions as tasks of the one runner: question ``slot`` of scene ``scene``.

The question itself (and its answer) is drawn when the scene is rendered in the editor, so a task
names its place in the benchmark (seed, scene, slot) and the environment asks it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scratch_gym.perception.dataset import PER_SCENE


@dataclass(frozen=True)
class QuestionSlot:
    """PerceptionQuestion ``slot`` (0 to ``PER_SCENE - 1``) of scene ``scene`` of the benchmark ``seed``."""

    seed: int
    scene: int
    slot: int
    suite = "perception"
    category = "perception"
    instruction = "Answer the question about the editor screenshot."

    @property
    def id(self) -> str:
        return f"s{self.seed}-{self.scene:04d}-{self.slot}"

    def reset_options(self) -> dict[str, Any]:
        """``PerceptionEnv.reset(options=...)`` for this question."""
        return {"scene": self.scene, "question": self.slot}

    @classmethod
    def from_id(cls, task_id: str) -> QuestionSlot:
        """The slot named by ``s<seed>-<scene>-<slot>``."""
        try:
            seed, scene, slot = task_id.split("-")
            if not seed.startswith("s"):
                raise ValueError
            out = cls(int(seed[1:]), int(scene), int(slot))
        except ValueError:
            raise ValueError(
                f"{task_id!r} is not a perception question id (s<seed>-<scene>-<slot>, "
                "e.g. s0-0003-1)"
            ) from None
        if not 0 <= out.slot < PER_SCENE:
            raise ValueError(f"{task_id!r}: the slot must be 0 to {PER_SCENE - 1}")
        return out


def question_slots(seed: int, screens: int) -> list[QuestionSlot]:
    """Every question slot of the first ``screens`` scenes."""
    return [QuestionSlot(seed, s, k) for s in range(screens) for k in range(PER_SCENE)]
