"""Scoring protocols of the NL2Scratch benchmark, as objects chosen once by name: ``paper``
(default) and ``robust``.

A :class:`ScoringProtocol` is assembled from parts behind the interfaces of
:mod:`~scratch_gym.nl2scratch.interfaces`: a parser, a program-side and a description-side slot
extractor, a SAC comparator with its slot rules (:mod:`~scratch_gym.nl2scratch.sac`), EM/F1 over
a normalised text (:mod:`~scratch_gym.nl2scratch.metrics`), and whether outputs are
post-processed (:mod:`~scratch_gym.nl2scratch.postprocess`) first.

* ``paper`` reproduces the published scorer item by item with the frozen parts of
  :mod:`scratch_gym.nl2scratch.paper`: outputs are post-processed, EM and token F1 compare
  whitespace-normalised text with ``,``, ``，`` and ``:`` turned into spaces and non-ASCII
  characters dropped, parse success is the published line matcher's acceptance of the
  whitespace-normalised text, and SAC_nl/SAC_ref use the published lexical extractors and slot
  comparison (SAC_ref without loop slots). ``perfect`` is SAC >= 1 and ``high`` SAC >= 0.85,
  compared exactly.
* ``robust`` is scratch-gym's own variant: no post-processing, whitespace-only EM/F1, the program
  model's parser, and the program-guided extractors with the rules of
  :mod:`~scratch_gym.nl2scratch.sac_rules`.

Two switches of the paper protocol are documented options: ``postprocess=False`` (score raw
outputs) and ``ref_loop_slots=True`` (SAC_ref with loop slots); together they give the paper's
20-shot row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from scratch_gym.nl2scratch.description_slots import RobustDescriptionSlots
from scratch_gym.nl2scratch.interfaces import (
    DescriptionSlotExtractor,
    Parser,
    Program,
    ProgramSlotExtractor,
)
from scratch_gym.nl2scratch.metrics import ROBUST_TEXT, TextMetrics
from scratch_gym.nl2scratch.paper import (
    PAPER_RULES,
    PaperDescriptionSlots,
    PaperParser,
    PaperProgramSlots,
    metric_text,
    normalize_text,
    with_loop_slots,
)
from scratch_gym.nl2scratch.parser import ProgramModelParser
from scratch_gym.nl2scratch.postprocess import postprocess as postprocess_output
from scratch_gym.nl2scratch.program_slots import RobustProgramSlots
from scratch_gym.nl2scratch.sac import SacComparator, SacResult
from scratch_gym.nl2scratch.sac_rules import ROBUST_RULES


def as_written(text: str) -> str:
    """The text unchanged."""
    return text


@dataclass(frozen=True)
class ScoringProtocol:
    """How predictions are cleaned and scored; see the module docstring. ``parse_input`` makes
    the text the parser sees when a prediction is scored (a candidate under selection is parsed
    as generated); ``ref_loop_slots`` is None where the protocol has no such switch."""

    name: str
    parser: Parser
    program_slots: ProgramSlotExtractor
    description_slots: DescriptionSlotExtractor
    comparator: SacComparator
    text_metrics: TextMetrics
    parse_input: Callable[[str], str]
    postprocess: bool
    ref_loop_slots: bool | None = None

    def prepare(self, prediction: str) -> str:
        """The prediction text that is scored (post-processed when the protocol says so)."""
        return postprocess_output(prediction) if self.postprocess else prediction

    def exact_match(self, prediction: str, reference: str) -> float:
        return self.text_metrics.exact_match(prediction, reference)

    def token_f1(self, prediction: str, reference: str) -> float:
        return self.text_metrics.token_f1(prediction, reference)

    def parse_success(self, prediction: str) -> bool:
        return self.parser.accepts(self.parse_input(prediction))

    def candidate_parses(self, candidate: str) -> bool:
        """Parse success of a raw candidate, as selection judges it."""
        return self.parser.accepts(candidate)

    def sac_nl(self, prediction: Program | None, description: str) -> SacResult:
        """SAC_nl of a program (text or lines) against an English description."""
        lines = self.program_slots.lines(prediction)
        program = self.program_slots.slots(lines)
        text = description or ""
        other = self.description_slots.slots(text, program, lines)
        return self.comparator.nl(program, other, text, not lines)

    def sac_ref(self, prediction: Program | None, reference: Program | None) -> SacResult:
        """SAC_ref of a program against a reference program."""
        lines, ref_lines = self.program_slots.lines(prediction), self.program_slots.lines(reference)
        program, other = self.program_slots.slots(lines), self.program_slots.slots(ref_lines)
        return self.comparator.ref(program, other, not lines or not ref_lines)

    def perfect(self, score: float) -> bool:
        return self.comparator.rules.perfect(score)

    def high(self, score: float) -> bool:
        return self.comparator.rules.high(score)

    def describe(self) -> dict[str, object]:
        """Name and switches, for reports."""
        return {
            "protocol": self.name,
            "postprocess": self.postprocess,
            "ref_loop_slots": self.ref_loop_slots,
        }


def paper_protocol(postprocess: bool = True, ref_loop_slots: bool = False) -> ScoringProtocol:
    """The published scorer's protocol."""
    rules = with_loop_slots(PAPER_RULES) if ref_loop_slots else PAPER_RULES
    return ScoringProtocol(
        name="paper",
        parser=PaperParser(),
        program_slots=PaperProgramSlots(),
        description_slots=PaperDescriptionSlots(),
        comparator=SacComparator(rules),
        text_metrics=TextMetrics(metric_text),
        parse_input=normalize_text,
        postprocess=postprocess,
        ref_loop_slots=ref_loop_slots,
    )


def robust_protocol(postprocess: bool = False, ref_loop_slots: bool = False) -> ScoringProtocol:
    """scratch-gym's own protocol (``ref_loop_slots`` does not apply: loops always count)."""
    return ScoringProtocol(
        name="robust",
        parser=ProgramModelParser(),
        program_slots=RobustProgramSlots(),
        description_slots=RobustDescriptionSlots(),
        comparator=SacComparator(ROBUST_RULES),
        text_metrics=ROBUST_TEXT,
        parse_input=as_written,
        postprocess=postprocess,
    )


_BUILDERS: dict[str, Callable[..., ScoringProtocol]] = {
    "paper": paper_protocol,
    "robust": robust_protocol,
}
PROTOCOLS = tuple(_BUILDERS)


def get_protocol(
    name: str = "paper", postprocess: bool | None = None, ref_loop_slots: bool = False
) -> ScoringProtocol:
    """A protocol by name; ``postprocess`` defaults to True for paper and False for robust."""
    if name not in _BUILDERS:
        raise ValueError(f"unknown protocol {name!r}; choose one of {', '.join(PROTOCOLS)}")
    options = {} if postprocess is None else {"postprocess": postprocess}
    return _BUILDERS[name](ref_loop_slots=ref_loop_slots, **options)


_ROBUST = robust_protocol()


def sac_nl(program: Program | None, description: str) -> SacResult:
    """SAC_nl under the robust protocol."""
    return _ROBUST.sac_nl(program, description)


def sac_ref(program: Program | None, reference: Program | None) -> SacResult:
    """SAC_ref under the robust protocol."""
    return _ROBUST.sac_ref(program, reference)
