"""NL2Scratch metrics: SAC (program vs description / reference), EM, token F1, parse success,
the benchmark runner with its two scoring protocols (``paper``, the default, reproducing the
published scorer; ``robust``, scratch-gym's own) and a rule-based describer."""

from scratch_gym.nl2scratch.describer import describe
from scratch_gym.nl2scratch.description_slots import extract_description_slots
from scratch_gym.nl2scratch.metrics import exact_match, parse_success, token_f1
from scratch_gym.nl2scratch.paper_parser import paper_parse_check, paper_parse_success
from scratch_gym.nl2scratch.paper_sac import paper_sac_nl, paper_sac_ref
from scratch_gym.nl2scratch.postprocess import postprocess
from scratch_gym.nl2scratch.program_slots import extract_program_slots
from scratch_gym.nl2scratch.protocols import PROTOCOLS, Protocol, get_protocol
from scratch_gym.nl2scratch.sac import HIGH_THRESHOLD, SacResult, sac_nl, sac_ref
from scratch_gym.nl2scratch.selection import STRATEGIES, select
from scratch_gym.nl2scratch.slots import SLOT_ORDER, Slots

__all__ = [
    "HIGH_THRESHOLD",
    "PROTOCOLS",
    "SLOT_ORDER",
    "STRATEGIES",
    "Protocol",
    "SacResult",
    "Slots",
    "describe",
    "exact_match",
    "extract_description_slots",
    "extract_program_slots",
    "get_protocol",
    "paper_parse_check",
    "paper_parse_success",
    "paper_sac_nl",
    "paper_sac_ref",
    "parse_success",
    "postprocess",
    "sac_nl",
    "sac_ref",
    "select",
    "token_f1",
]
