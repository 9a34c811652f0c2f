"""Parse success under the robust protocol: the project's program-model parser
(``scratch_gym.program.parse_scripts``) in the NL2Scratch corpus dialect; an empty program fails.
The paper protocol's parser is :class:`scratch_gym.nl2scratch.paper.PaperParser`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from scratch_gym.nl2scratch.text import program_lines

Program = str | Iterable[str]


def parse_success(program: Program | None) -> bool:
    """Whether the program model's parser accepts the program in the NL2Scratch corpus dialect
    (the dialect the benchmark's programs are written in; empty text fails)."""
    from scratch_gym.program import ScratchblocksError, parse_scripts

    lines = program_lines(program)
    if not lines:
        return False
    try:
        parse_scripts("\n".join(lines), dialect="nl2scratch")
    except ScratchblocksError:
        return False
    return True


@dataclass(frozen=True)
class ProgramModelParser:
    """The program model's parser as a :class:`~scratch_gym.nl2scratch.interfaces.Parser`."""

    def available(self) -> bool:
        """Whether the program model can be imported."""
        try:
            from scratch_gym.program import ScratchblocksError, parse_scripts  # noqa: F401
        except ImportError:
            return False
        return True

    def accepts(self, program: str) -> bool:
        return parse_success(program)
