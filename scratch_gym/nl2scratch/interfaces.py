"""The parts a scoring protocol is assembled from: a program-side and a description-side SAC slot
extractor and a parser. The robust protocol's parts (:mod:`~scratch_gym.nl2scratch.program_slots`,
:mod:`~scratch_gym.nl2scratch.description_slots`, :mod:`~scratch_gym.nl2scratch.parser`) and the
paper's (:mod:`scratch_gym.nl2scratch.paper`) implement these; :mod:`~scratch_gym.nl2scratch.protocols`
puts them together.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from scratch_gym.nl2scratch.slots import Slots

Program = str | Iterable[str]


class ProgramSlotExtractor(Protocol):
    """Reads the SAC slots of a program."""

    def lines(self, program: Program | None) -> list[str]:
        """The program's non-blank lines, as this extractor splits text."""
        ...

    def slots(self, lines: Sequence[str]) -> Slots:
        """The slots of a program given as its lines (from :meth:`lines`)."""
        ...


class DescriptionSlotExtractor(Protocol):
    """Reads the SAC slots of an English description."""

    def slots(self, description: str, program: Slots, program_lines: Sequence[str]) -> Slots:
        """The description's slots; ``program`` and ``program_lines`` are the program it is
        compared with, for extractors guided by the program (a lexical one ignores them)."""
        ...


class Parser(Protocol):
    """Decides parse success (PS)."""

    def available(self) -> bool:
        """Whether the parser can run here."""
        ...

    def accepts(self, program: str) -> bool:
        """Whether the parser accepts the program text (empty text fails)."""
        ...
