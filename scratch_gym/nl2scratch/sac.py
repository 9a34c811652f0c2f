"""SAC (Semantic Alignment Consistency): slot agreement between a program and a description
(SAC_nl) or between a program and a reference program (SAC_ref), given the slots both sides'
extractors read.

One comparator, :class:`SacComparator`, parameterised by :class:`SlotRules`: the five rules
where the protocols' comparisons differ are data (the robust protocol's are
:data:`~scratch_gym.nl2scratch.sac_rules.ROBUST_RULES`, the paper's
:data:`~scratch_gym.nl2scratch.paper.sac_rules.PAPER_RULES`; docs/nl2scratch.md tables them).
What every protocol shares:

* SAC is the mean of the per-slot scores over the *comparable* slots (a score of None is not
  comparable), in :data:`~scratch_gym.nl2scratch.slots.SLOT_ORDER`.
* Set slots score the overlap |A∩B| / |A∪B| (Jaccard), not comparable when both are empty, so
  both missing and extra values cost.
* An empty program scores 0; SAC_nl with no comparable slot is 0.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from scratch_gym.nl2scratch.slots import NAME_SLOTS, SCALAR_SLOTS, SLOT_ORDER, Slots

HIGH_THRESHOLD = 0.85

Score = float | None
ScalarRule = Callable[[str | None, str | None], Score]
NameRule = Callable[[frozenset[str], frozenset[str], str], Score]


@dataclass(frozen=True)
class SlotRules:
    """The rules of one protocol's SAC comparison:

    1. ``scalar``: the score of a scalar slot (None: not comparable);
    2. ``nl_number``: how SAC_nl reads a number of ``numeric_values`` (signed, or its magnitude);
    3. ``nl_names``: the SAC_nl score of a name slot from the program's names, the description's
       and the description text;
    4. ``ref_skipped``: slots SAC_ref leaves out (never comparable);
    5. empty sides: ``empty_slot_scores`` (an empty program still gets its per-slot scores) and
       ``ref_nothing_comparable`` (SAC_ref of two non-empty programs without a comparable slot).

    ``perfect`` and ``high`` are the protocol's comparisons of a score with 1 and with 0.85."""

    scalar: ScalarRule
    nl_number: Callable[[str], str]
    nl_names: NameRule
    ref_skipped: frozenset[str]
    empty_slot_scores: bool
    ref_nothing_comparable: float
    perfect: Callable[[float], bool]
    high: Callable[[float], bool]


@dataclass(frozen=True)
class SacResult:
    """A SAC score with its slot values and per-slot scores (None: not comparable)."""

    score: float
    slot_scores: dict[str, float | None]
    program: Slots
    other: Slots
    rules: SlotRules = field(repr=False, compare=False)

    @property
    def perfect(self) -> bool:
        """SAC = 1.0, as the rules compare it."""
        return self.rules.perfect(self.score)

    @property
    def high(self) -> bool:
        """SAC >= 0.85, as the rules compare it."""
        return self.rules.high(self.score)

    def mismatched_slots(self) -> list[str]:
        """Comparable slots that scored below 1."""
        return [s for s, v in self.slot_scores.items() if v is not None and v < 1.0 - 1e-12]


def jaccard(left: Iterable[str], right: Iterable[str]) -> float | None:
    """|A∩B| / |A∪B|, or None when both sets are empty."""
    a, b = set(left), set(right)
    if not a and not b:
        return None
    return len(a & b) / len(a | b)


def _mean(scores: dict[str, float | None], empty: float) -> float:
    values = [v for v in scores.values() if v is not None]
    return sum(values) / len(values) if values else empty


@dataclass(frozen=True)
class SacComparator:
    """SAC_nl and SAC_ref of slots already extracted, under ``rules``."""

    rules: SlotRules

    def _nothing(self, program: Slots, other: Slots) -> SacResult:
        return SacResult(0.0, dict.fromkeys(SLOT_ORDER), program, other, self.rules)

    def nl(self, program: Slots, description: Slots, text: str, empty: bool) -> SacResult:
        """SAC_nl of program slots against description slots; ``text`` is the description,
        ``empty`` whether the program has no line."""
        if empty and not self.rules.empty_slot_scores:
            return self._nothing(program, description)
        scores = {
            slot: self._nl_slot(slot, program.get(slot), description.get(slot), text)
            for slot in SLOT_ORDER
        }
        return SacResult(
            0.0 if empty else _mean(scores, 0.0), scores, program, description, self.rules
        )

    def _nl_slot(self, slot: str, left: Any, right: Any, text: str) -> float | None:
        if slot in SCALAR_SLOTS:
            return self.rules.scalar(left, right)
        if slot in NAME_SLOTS:
            return self.rules.nl_names(left, right, text)
        if slot == "numeric_values":
            left = {self.rules.nl_number(v) for v in left}
            right = {self.rules.nl_number(v) for v in right}
        return jaccard(left, right)

    def ref(self, program: Slots, reference: Slots, empty: bool) -> SacResult:
        """SAC_ref of two programs' slots; ``empty`` whether either program has no line."""
        if empty and not self.rules.empty_slot_scores:
            return self._nothing(program, reference)
        scores = {slot: self._ref_slot(slot, program, reference) for slot in SLOT_ORDER}
        score = 0.0 if empty else _mean(scores, self.rules.ref_nothing_comparable)
        return SacResult(score, scores, program, reference, self.rules)

    def _ref_slot(self, slot: str, program: Slots, reference: Slots) -> float | None:
        if slot in self.rules.ref_skipped:
            return None
        if slot in SCALAR_SLOTS:
            return self.rules.scalar(program.get(slot), reference.get(slot))
        return jaccard(program.get(slot), reference.get(slot))
