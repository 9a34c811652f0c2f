"""Built-in agents for the question and program-writing suites.

* Perception (``mode="perception"``): :class:`AnswerOracleAgent` answers with the truth the
  environment publishes to privileged agents (``hidden_facts()["answer"]``);
  :class:`AnswerRandomAgent` answers yes or no at random (so it is wrong on every field question,
  whose answer is a value).
* NL2Scratch (``mode="nl2scratch"``): :class:`ProgramOracleAgent` writes the episode's reference
  program (``hidden_facts()["reference"]``); :class:`ProgramRandomAgent` writes a short random
  script from a fixed set of blocks (always valid scratchblocks).

Each episode is one answer (one program) long.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from scratch_gym.agents.base import Agent, PrivilegedAgent


class AnswerOracleAgent(PrivilegedAgent):
    name = "oracle"
    mode = "perception"

    def act(self, observation: Any, info: dict[str, Any]) -> str:
        return str(self.fact("answer"))


class _SeededRandomAgent(Agent):
    """A random baseline of one mode, seeded per episode."""

    name = "random"

    def __init__(self, mode: str | None = None, seed: int = 0) -> None:
        super().__init__()
        if mode not in (None, self.mode):
            raise ValueError(f"this random agent acts in {self.mode} mode, not {mode!r}")
        self.rng = np.random.default_rng(seed)

    def seed(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)


class AnswerRandomAgent(_SeededRandomAgent):
    mode = "perception"

    def act(self, observation: Any, info: dict[str, Any]) -> str:
        return "yes" if self.rng.random() < 0.5 else "no"


class ProgramOracleAgent(PrivilegedAgent):
    name = "oracle"
    mode = "nl2scratch"

    def act(self, observation: Any, info: dict[str, Any]) -> str:
        return "\n".join(self.fact("reference"))


RANDOM_HATS = ("when green flag clicked", "when [space v] key pressed", "when this sprite clicked")
RANDOM_BLOCKS = (
    "move (10) steps",
    "turn right (15) degrees",
    "say [Hello!] for (2) seconds",
    "change [color v] effect by (25)",
    "wait (1) seconds",
    "next costume",
    "play sound (Meow v) until done",
    "change x by (10)",
)


class ProgramRandomAgent(_SeededRandomAgent):
    """One script: a random hat and one to four random stack blocks (seeded)."""

    mode = "nl2scratch"

    def act(self, observation: Any, info: dict[str, Any]) -> str:
        hat = RANDOM_HATS[int(self.rng.integers(len(RANDOM_HATS)))]
        count = int(self.rng.integers(1, 5))
        body = [RANDOM_BLOCKS[int(i)] for i in self.rng.integers(len(RANDOM_BLOCKS), size=count)]
        return "\n".join([hat, *body])
