"""SAC under the paper protocol (the published scorer's slot comparison).

* Scalar slots: not comparable when both sides are empty (None or ""), else 1 on equality.
* Set slots: Jaccard, not comparable when both are empty. Numbers compare signed.
* SAC_nl name slots are *guided*: a program name counts as found when the description's slot holds
  it or the normalised description contains it as a substring; comparable when either side has
  names, 0 when only the description has some.
* SAC_ref compares the two programs' slots with Jaccard and, as the released
  ``compute_sac_pseudo`` does, leaves the loop slots out (``loop_slots=True`` puts them back,
  which is how the paper's 20-shot row was computed).
* SAC is the mean over comparable slots, 0 when none is comparable or a program is empty (an
  empty program has no comparable slot).
"""

from __future__ import annotations

from collections.abc import Iterable

from scratch_gym.nl2scratch.paper_description_slots import paper_description_slots
from scratch_gym.nl2scratch.paper_program_slots import paper_program_slots
from scratch_gym.nl2scratch.paper_text import paper_name
from scratch_gym.nl2scratch.sac import SacResult
from scratch_gym.nl2scratch.slots import NAME_SLOTS, SCALAR_SLOTS, SLOT_ORDER, Slots

LOOP_SLOTS = ("loop_types", "loop_counts")
Program = str | Iterable[str]


def scorer_lines(program: Program | None) -> list[str]:
    """Non-blank lines, as the scorer splits text (``str.splitlines``), indentation kept."""
    if program is None:
        return []
    text = program if isinstance(program, str) else "\n".join(program)
    return [line for line in text.splitlines() if line.strip()]


def _scalar(left: str | None, right: str | None) -> float | None:
    if not left and not right:
        return None
    return 1.0 if left == right else 0.0


def _jaccard(left: frozenset[str], right: frozenset[str]) -> float | None:
    if not left and not right:
        return None
    return len(left & right) / len(left | right)


def _guided(program_names: frozenset[str], nl_names: frozenset[str], text: str) -> float | None:
    if not program_names and not nl_names:
        return None
    if not program_names:
        return 0.0
    found = sum(1 for n in program_names if paper_name(n) in nl_names or paper_name(n) in text)
    return found / len(program_names)


def _mean(scores: dict[str, float | None]) -> float:
    values = [v for v in scores.values() if v is not None]
    return sum(values) / len(values) if values else 0.0


def slot_scores_nl(program: Slots, description: Slots, text: str) -> dict[str, float | None]:
    """Per-slot SAC_nl scores (None: not comparable)."""
    normalised = paper_name(text)
    scores: dict[str, float | None] = {}
    for slot in SLOT_ORDER:
        left, right = program.get(slot), description.get(slot)
        if slot in SCALAR_SLOTS:
            scores[slot] = _scalar(left, right)
        elif slot in NAME_SLOTS:
            scores[slot] = _guided(left, right, normalised)
        else:
            scores[slot] = _jaccard(left, right)
    return scores


def slot_scores_ref(
    program: Slots, reference: Slots, loop_slots: bool = False
) -> dict[str, float | None]:
    """Per-slot SAC_ref scores; loop slots are None unless ``loop_slots``."""
    scores: dict[str, float | None] = {}
    for slot in SLOT_ORDER:
        left, right = program.get(slot), reference.get(slot)
        if slot in LOOP_SLOTS and not loop_slots:
            scores[slot] = None
        elif slot in SCALAR_SLOTS:
            scores[slot] = _scalar(left, right)
        else:
            scores[slot] = _jaccard(left, right)
    return scores


def paper_sac_nl(program: Program | None, description: str) -> SacResult:
    """SAC_nl of a program against a description under the paper protocol."""
    lines = scorer_lines(program)
    p_slots = paper_program_slots(lines)
    d_slots = paper_description_slots(description or "")
    if not lines:
        return SacResult(0.0, dict.fromkeys(SLOT_ORDER), p_slots, d_slots)
    scores = slot_scores_nl(p_slots, d_slots, description or "")
    return SacResult(_mean(scores), scores, p_slots, d_slots)


def paper_sac_ref(
    program: Program | None, reference: Program | None, loop_slots: bool = False
) -> SacResult:
    """SAC_ref of a program against a reference program under the paper protocol."""
    lines, ref_lines = scorer_lines(program), scorer_lines(reference)
    p_slots, r_slots = paper_program_slots(lines), paper_program_slots(ref_lines)
    if not lines or not ref_lines:
        return SacResult(0.0, dict.fromkeys(SLOT_ORDER), p_slots, r_slots)
    scores = slot_scores_ref(p_slots, r_slots, loop_slots)
    return SacResult(_mean(scores), scores, p_slots, r_slots)
