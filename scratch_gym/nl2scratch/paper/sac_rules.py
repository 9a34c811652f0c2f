"""The paper protocol's SAC rules (the published scorer's slot comparison), as
:class:`~scratch_gym.nl2scratch.sac.SlotRules`:

1. Scalar slots: not comparable when both sides are empty (None or ""), else 1 on equality.
2. Numbers compare signed in SAC_nl too.
3. SAC_nl name slots are *guided*: a program name counts as found when the description's slot
   holds it or the normalised description contains it as a substring; comparable when either side
   has names, 0 when only the description has some.
4. SAC_ref leaves the loop slots out, as the released ``compute_sac_pseudo`` does
   (:func:`with_loop_slots` puts them back, which is how the paper's 20-shot row was computed).
5. An empty program has no comparable slot (every slot score None) and scores 0; so does SAC_ref
   of two programs with no comparable slot.

``perfect`` is SAC >= 1 and ``high`` SAC >= 0.85, compared exactly.
"""

from __future__ import annotations

from dataclasses import replace

from scratch_gym.nl2scratch.paper.text import paper_name
from scratch_gym.nl2scratch.sac import HIGH_THRESHOLD, SlotRules

LOOP_SLOTS = frozenset({"loop_types", "loop_counts"})


def scalar_unless_blank(left: str | None, right: str | None) -> float | None:
    """1 on equality, else 0; None when both are empty (None or "")."""
    if not left and not right:
        return None
    return 1.0 if left == right else 0.0


def signed(number: str) -> str:
    """A number as SAC_nl compares it: as written (signed)."""
    return number


def guided_names(program: frozenset[str], description: frozenset[str], text: str) -> float | None:
    """The share of the program's names that the description's slot holds or its normalised text
    contains; 0 when only the description has names, None when neither has."""
    if not program and not description:
        return None
    if not program:
        return 0.0
    normalised = paper_name(text)
    found = sum(1 for n in program if paper_name(n) in description or paper_name(n) in normalised)
    return found / len(program)


def perfect(score: float) -> bool:
    """SAC >= 1, exactly."""
    return score >= 1.0


def high(score: float) -> bool:
    """SAC >= 0.85, exactly."""
    return score >= HIGH_THRESHOLD


PAPER_RULES = SlotRules(
    scalar=scalar_unless_blank,
    nl_number=signed,
    nl_names=guided_names,
    ref_skipped=LOOP_SLOTS,
    empty_slot_scores=False,
    ref_nothing_comparable=0.0,
    perfect=perfect,
    high=high,
)


def with_loop_slots(rules: SlotRules) -> SlotRules:
    """``rules`` with SAC_ref comparing the loop slots too."""
    return replace(rules, ref_skipped=rules.ref_skipped - LOOP_SLOTS)
