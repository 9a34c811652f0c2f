"""Conventional NL2Scratch metrics of the *robust* protocol: exact match, token F1 and parse
success (the ``paper`` protocol's are in :mod:`scratch_gym.nl2scratch.protocols`).

* **Exact match** compares the two programs after whitespace normalisation: blank lines dropped,
  each line stripped and its inner runs of whitespace collapsed (indentation is not compared).
* **Token F1** is the harmonic mean of precision and recall of the multiset of whitespace tokens
  of the normalised programs (1.0 when both are empty, 0.0 when only one is).
* **Parse success** asks the project's program-model parser
  (``scratch_gym.program.parse_scripts``) whether the text parses; an empty program fails.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from scratch_gym.nl2scratch.text import program_lines

Program = str | Iterable[str]


def normalize_program(program: Program | None) -> list[str]:
    """Non-blank lines, stripped, inner whitespace collapsed."""
    return [" ".join(line.split()) for line in program_lines(program)]


def exact_match(prediction: Program | None, reference: Program | None) -> bool:
    """Whether the programs are equal after whitespace normalisation."""
    return normalize_program(prediction) == normalize_program(reference)


def token_f1(prediction: Program | None, reference: Program | None) -> float:
    """Token-level F1 between the normalised programs."""
    pred = Counter(tok for line in normalize_program(prediction) for tok in line.split())
    gold = Counter(tok for line in normalize_program(reference) for tok in line.split())
    if not pred and not gold:
        return 1.0
    overlap = sum((pred & gold).values())
    if overlap == 0:
        return 0.0
    precision = overlap / sum(pred.values())
    recall = overlap / sum(gold.values())
    return 2 * precision * recall / (precision + recall)


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
