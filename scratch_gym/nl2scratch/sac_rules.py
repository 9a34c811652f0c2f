"""The robust protocol's SAC rules (:class:`~scratch_gym.nl2scratch.sac.SlotRules`), for
scratch-gym's own, program-guided extractors:

1. **Scalar slots** (``event_type``, ``event_target``): comparable when either side has a value;
   1 on exact equality, else 0.
2. **Numbers**: SAC_nl compares ``numeric_values`` by magnitude, since descriptions put signs into
   words ("move down 10", "point left"); SAC_ref compares signed values.
3. **Name slots** (variables, costumes, backdrops, broadcasts): in SAC_nl the description's names
   are found by looking for the program's names in it (the paper's guided matching), so the slot
   is comparable when the *program* has names and scores the fraction of them that the description
   names. In SAC_ref both sides are programs: Jaccard.
4. **SAC_ref** compares every slot, loops included.
5. **Empty sides**: an empty program scores 0 but its slot scores are still reported; SAC_ref of
   two non-empty programs with no comparable slot is 1 (they agree on every slot, all empty).

``perfect`` is SAC = 1 and ``high`` SAC >= 0.85, both with a floating-point tolerance.

Measured on the paper's 800-example diagnostic set (which kept pairs with SAC >= 0.85; some
descriptions are cut off mid-sentence): SAC_nl of each reference program against its own description
has mean 0.984, 76% of pairs at 1.0 and 98% at >= 0.85 (minimum 0.69); against the next example's
description (a derangement) the mean is 0.17 and 0.4% reach 1.0; SAC_ref of each reference against
itself is 1.0.
"""

from __future__ import annotations

import math

from scratch_gym.nl2scratch.sac import HIGH_THRESHOLD, SlotRules
from scratch_gym.nl2scratch.text import abs_number


def scalar_agreement(left: str | None, right: str | None) -> float | None:
    """1 when equal, 0 when different, None when both are missing."""
    if left is None and right is None:
        return None
    return 1.0 if left == right else 0.0


def program_names_found(
    program: frozenset[str], description: frozenset[str], text: str
) -> float | None:
    """The share of the program's names among the (guided) description's; None without any."""
    return len(program & description) / len(program) if program else None


def perfect(score: float) -> bool:
    """SAC = 1.0, within floating-point tolerance."""
    return math.isclose(score, 1.0)


def high(score: float) -> bool:
    """SAC >= 0.85, within floating-point tolerance."""
    return score >= HIGH_THRESHOLD - 1e-12


ROBUST_RULES = SlotRules(
    scalar=scalar_agreement,
    nl_number=abs_number,
    nl_names=program_names_found,
    ref_skipped=frozenset(),
    empty_slot_scores=True,
    ref_nothing_comparable=1.0,
    perfect=perfect,
    high=high,
)
