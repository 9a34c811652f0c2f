"""Scoring protocols of the NL2Scratch benchmark: ``paper`` (default) and ``robust``.

* ``paper`` reproduces the published scorer item by item: model outputs are post-processed
  (:mod:`~scratch_gym.nl2scratch.postprocess`), EM and token F1 compare whitespace-normalised
  text with ``,``, ``，`` and ``:`` turned into spaces and non-ASCII characters dropped, parse
  success is the published line matcher's acceptance (:mod:`~scratch_gym.nl2scratch.paper_parser`)
  of the whitespace-normalised text, and SAC_nl/SAC_ref use the published lexical extractors
  (:mod:`~scratch_gym.nl2scratch.paper_sac`; SAC_ref without loop slots). ``perfect`` is
  SAC >= 1 and ``high`` SAC >= 0.85, compared exactly.
* ``robust`` is scratch-gym's own variant: no post-processing, whitespace-only EM/F1, the program
  model's parser, and the program-guided extractors of :mod:`~scratch_gym.nl2scratch.sac`.

Two switches of the paper protocol are documented options: ``postprocess=False`` (score raw
outputs) and ``ref_loop_slots=True`` (SAC_ref with loop slots); together they give the paper's
20-shot row.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

from scratch_gym.nl2scratch import metrics as robust_metrics
from scratch_gym.nl2scratch.paper_parser import paper_parse_success
from scratch_gym.nl2scratch.paper_sac import paper_sac_nl, paper_sac_ref
from scratch_gym.nl2scratch.postprocess import postprocess
from scratch_gym.nl2scratch.sac import HIGH_THRESHOLD, SacResult, sac_nl, sac_ref

PROTOCOLS = ("paper", "robust")
_EM_BLANKED = re.compile(r"[，,:]")


def normalize_text(text: str) -> str:
    """Non-blank lines, stripped, inner whitespace collapsed, joined by newlines."""
    return "\n".join(" ".join(line.split()) for line in text.splitlines() if line.strip())


def paper_metric_text(text: str) -> str:
    """The text EM and F1 compare under the paper protocol."""
    blanked = _EM_BLANKED.sub(" ", normalize_text(text))
    return blanked.encode("ascii", "ignore").decode()


def paper_token_f1(prediction: str, reference: str) -> float:
    """Token F1 of two metric texts (1 when both are empty, 0 when one is)."""
    pred, gold = prediction.split(), reference.split()
    if not pred and not gold:
        return 1.0
    if not pred or not gold:
        return 0.0
    overlap = sum((Counter(pred) & Counter(gold)).values())
    precision, recall = overlap / len(pred), overlap / len(gold)
    if precision + recall == 0:
        return 0.0
    return 2 * precision * recall / (precision + recall)


@dataclass(frozen=True)
class Protocol:
    """How predictions are cleaned and scored; see the module docstring."""

    name: str = "paper"
    postprocess: bool = True
    ref_loop_slots: bool = False

    def __post_init__(self) -> None:
        if self.name not in PROTOCOLS:
            raise ValueError(
                f"unknown protocol {self.name!r}; choose one of {', '.join(PROTOCOLS)}"
            )

    @property
    def paper(self) -> bool:
        return self.name == "paper"

    def prepare(self, prediction: str) -> str:
        """The prediction text that is scored (post-processed when the protocol says so)."""
        return postprocess(prediction) if self.postprocess else prediction

    def exact_match(self, prediction: str, reference: str) -> float:
        if self.paper:
            return float(paper_metric_text(prediction) == paper_metric_text(reference))
        return float(robust_metrics.exact_match(prediction, reference))

    def token_f1(self, prediction: str, reference: str) -> float:
        if self.paper:
            return paper_token_f1(paper_metric_text(prediction), paper_metric_text(reference))
        return robust_metrics.token_f1(prediction, reference)

    def parse_success(self, prediction: str) -> bool:
        if self.paper:
            return paper_parse_success(normalize_text(prediction))
        return robust_metrics.parse_success(prediction)

    def candidate_parses(self, candidate: str) -> bool:
        """Parse success of a raw candidate, as selection judges it (the paper's generator gives
        the parser the text as generated, without whitespace normalisation)."""
        if self.paper:
            return paper_parse_success(candidate)
        return robust_metrics.parse_success(candidate)

    def sac_nl(self, prediction: str, description: str) -> SacResult:
        if self.paper:
            return paper_sac_nl(prediction, description)
        return sac_nl(prediction, description)

    def sac_ref(self, prediction: str, reference: str) -> SacResult:
        if self.paper:
            return paper_sac_ref(prediction, reference, self.ref_loop_slots)
        return sac_ref(prediction, reference)

    def perfect(self, score: float) -> bool:
        return score >= 1.0 if self.paper else math.isclose(score, 1.0)

    def high(self, score: float) -> bool:
        return score >= HIGH_THRESHOLD if self.paper else score >= HIGH_THRESHOLD - 1e-12

    def describe(self) -> dict[str, object]:
        """Name and switches, for reports."""
        return {
            "protocol": self.name,
            "postprocess": self.postprocess,
            "ref_loop_slots": self.ref_loop_slots if self.paper else None,
        }


def get_protocol(
    name: str = "paper", postprocess: bool | None = None, ref_loop_slots: bool = False
) -> Protocol:
    """A protocol by name; ``postprocess`` defaults to True for paper and False for robust."""
    if name not in PROTOCOLS:
        raise ValueError(f"unknown protocol {name!r}; choose one of {', '.join(PROTOCOLS)}")
    if postprocess is None:
        postprocess = name == "paper"
    return Protocol(name, postprocess, ref_loop_slots)
