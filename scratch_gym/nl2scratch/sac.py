"""SAC (Semantic Alignment Consistency): slot agreement between a program and a description
(SAC_nl) or between a program and a reference program (SAC_ref), as the *robust* protocol scores
it (scratch-gym's own extractors). The published scorer's SAC, the default ``paper`` protocol,
is :mod:`scratch_gym.nl2scratch.paper_sac`; docs/nl2scratch.md tables the differences.

SAC is the mean of the per-slot scores over the *comparable* slots. Choices:

* **Scalar slots** (``event_type``, ``event_target``): comparable when either side has a value;
  score 1 on exact equality, else 0.
* **Set slots** (``action_types``, ``loop_types``, ``loop_counts``, ``condition_types``,
  ``numeric_values``): comparable when either side is non-empty; score is the set overlap
  |A∩B| / |A∪B| (Jaccard), so both missing and extra values cost. SAC_nl compares numbers by
  magnitude, since descriptions put signs into words ("move down 10", "point left"); SAC_ref
  compares signed values.
* **Name slots** (variables, costumes, backdrops, broadcasts): in SAC_nl the description's names are
  found by looking for the program's names in it (the paper's guided matching), so the slot is
  comparable when the *program* has names and scores the fraction of them that the description
  names. In SAC_ref both sides are programs: comparable when either side has names, Jaccard.
* No comparable slot: SAC_nl is 0 (nothing could be checked); SAC_ref is 1 when both programs are
  non-empty (they agree on every slot, all empty). An empty program scores 0 in both.
* ``perfect`` means SAC = 1.0 and ``high`` means SAC >= 0.85 (``HIGH_THRESHOLD``).

Measured on the paper's 800-example diagnostic set (which kept pairs with SAC >= 0.85; some
descriptions are cut off mid-sentence): SAC_nl of each reference program against its own description
has mean 0.984, 76% of pairs at 1.0 and 98% at >= 0.85 (minimum 0.69); against the next example's
description (a derangement) the mean is 0.17 and 0.4% reach 1.0; SAC_ref of each reference against
itself is 1.0.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from scratch_gym.nl2scratch.description_slots import extract_description_slots
from scratch_gym.nl2scratch.program_slots import extract_program_slots, program_identifiers
from scratch_gym.nl2scratch.slots import NAME_SLOTS, SCALAR_SLOTS, SET_SLOTS, SLOT_ORDER, Slots
from scratch_gym.nl2scratch.text import abs_number, program_lines

HIGH_THRESHOLD = 0.85

Program = str | Iterable[str]


@dataclass(frozen=True)
class SacResult:
    """A SAC score with its slot values and per-slot scores (None: not comparable)."""

    score: float
    slot_scores: dict[str, float | None]
    program: Slots
    other: Slots

    @property
    def perfect(self) -> bool:
        """SAC = 1.0."""
        return math.isclose(self.score, 1.0)

    @property
    def high(self) -> bool:
        """SAC >= 0.85."""
        return self.score >= HIGH_THRESHOLD - 1e-12

    def mismatched_slots(self) -> list[str]:
        """Comparable slots that scored below 1."""
        return [s for s, v in self.slot_scores.items() if v is not None and v < 1.0 - 1e-12]


def jaccard(left: Iterable[str], right: Iterable[str]) -> float | None:
    """|A∩B| / |A∪B|, or None when both sets are empty."""
    a, b = set(left), set(right)
    if not a and not b:
        return None
    return len(a & b) / len(a | b)


def scalar_agreement(left: str | None, right: str | None) -> float | None:
    """1 when equal, 0 when different, None when both are missing."""
    if left is None and right is None:
        return None
    return 1.0 if left == right else 0.0


def _mean(scores: dict[str, float | None], empty: float) -> float:
    values = [v for v in scores.values() if v is not None]
    return sum(values) / len(values) if values else empty


def slot_scores_nl(program: Slots, description: Slots) -> dict[str, float | None]:
    """Per-slot SAC_nl scores of program slots against (guided) description slots."""
    scores: dict[str, float | None] = {}
    for slot in SCALAR_SLOTS:
        scores[slot] = scalar_agreement(program.get(slot), description.get(slot))
    for slot in SET_SLOTS:
        left, right = program.get(slot), description.get(slot)
        if slot == "numeric_values":
            left, right = {abs_number(v) for v in left}, {abs_number(v) for v in right}
        scores[slot] = jaccard(left, right)
    for slot in NAME_SLOTS:
        names = program.get(slot)
        scores[slot] = len(names & description.get(slot)) / len(names) if names else None
    return {slot: scores[slot] for slot in SLOT_ORDER}


def slot_scores_ref(program: Slots, reference: Slots) -> dict[str, float | None]:
    """Per-slot SAC_ref scores of two programs' slots."""
    scores: dict[str, float | None] = {}
    for slot in SLOT_ORDER:
        if slot in SCALAR_SLOTS:
            scores[slot] = scalar_agreement(program.get(slot), reference.get(slot))
        else:
            scores[slot] = jaccard(program.get(slot), reference.get(slot))
    return scores


def sac_nl(program: Program, description: str) -> SacResult:
    """SAC between a program (scratchblocks text or lines) and an English description."""
    lines = program_lines(program)
    p_slots = extract_program_slots(lines)
    d_slots = extract_description_slots(description or "", p_slots, program_identifiers(lines))
    scores = slot_scores_nl(p_slots, d_slots)
    score = _mean(scores, 0.0) if lines else 0.0
    return SacResult(score, scores, p_slots, d_slots)


def sac_ref(program: Program, reference: Program) -> SacResult:
    """SAC between a program and a reference program."""
    lines, ref_lines = program_lines(program), program_lines(reference)
    p_slots, r_slots = extract_program_slots(lines), extract_program_slots(ref_lines)
    scores = slot_scores_ref(p_slots, r_slots)
    score = _mean(scores, 1.0) if lines and ref_lines else 0.0
    return SacResult(score, scores, p_slots, r_slots)
