"""NL2Scratch metrics: SAC (program vs description / reference), EM, token F1, parse success,
the benchmark runner and a rule-based describer."""

from scratch_gym.nl2scratch.describer import describe
from scratch_gym.nl2scratch.description_slots import extract_description_slots
from scratch_gym.nl2scratch.metrics import exact_match, parse_success, token_f1
from scratch_gym.nl2scratch.program_slots import extract_program_slots
from scratch_gym.nl2scratch.sac import HIGH_THRESHOLD, SacResult, sac_nl, sac_ref
from scratch_gym.nl2scratch.slots import SLOT_ORDER, Slots

__all__ = [
    "HIGH_THRESHOLD",
    "SLOT_ORDER",
    "SacResult",
    "Slots",
    "describe",
    "exact_match",
    "extract_description_slots",
    "extract_program_slots",
    "parse_success",
    "sac_nl",
    "sac_ref",
    "token_f1",
]
