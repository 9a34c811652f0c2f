"""NL2Scratch metrics: SAC (program vs description / reference), EM, token F1, parse success,
the benchmark runner with its two scoring protocols (``paper``, the default, reproducing the
published scorer with the frozen parts of :mod:`scratch_gym.nl2scratch.paper`; ``robust``,
scratch-gym's own) and a rule-based describer."""

from scratch_gym.nl2scratch.describer import describe
from scratch_gym.nl2scratch.description_slots import extract_description_slots
from scratch_gym.nl2scratch.metrics import TextMetrics, exact_match, token_f1
from scratch_gym.nl2scratch.parser import parse_success
from scratch_gym.nl2scratch.postprocess import postprocess
from scratch_gym.nl2scratch.program_slots import extract_program_slots
from scratch_gym.nl2scratch.protocols import (
    PROTOCOLS,
    ScoringProtocol,
    get_protocol,
    sac_nl,
    sac_ref,
)
from scratch_gym.nl2scratch.sac import HIGH_THRESHOLD, SacComparator, SacResult, SlotRules
from scratch_gym.nl2scratch.selection import STRATEGIES, select
from scratch_gym.nl2scratch.slots import SLOT_ORDER, Slots

__all__ = [
    "HIGH_THRESHOLD",
    "PROTOCOLS",
    "SLOT_ORDER",
    "STRATEGIES",
    "SacComparator",
    "SacResult",
    "ScoringProtocol",
    "SlotRules",
    "Slots",
    "TextMetrics",
    "describe",
    "exact_match",
    "extract_description_slots",
    "extract_program_slots",
    "get_protocol",
    "parse_success",
    "postprocess",
    "sac_nl",
    "sac_ref",
    "select",
    "token_f1",
]
