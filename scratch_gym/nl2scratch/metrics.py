"""EM and token F1, one implementation for every protocol: :class:`TextMetrics` compares the texts
its ``normalise`` makes of the two programs.

* **Exact match**: the normalised texts are equal.
* **Token F1**: the harmonic mean of precision and recall of the multisets of whitespace tokens of
  the normalised texts (1.0 when both are empty, 0.0 when they share no token).

The robust protocol's normalisation (:func:`program_text`, used by :func:`exact_match` and
:func:`token_f1`): blank lines dropped, invisible characters removed, each line stripped and its
inner runs of whitespace collapsed (indentation is not compared). The paper protocol's is
:func:`scratch_gym.nl2scratch.paper.metric_text`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from scratch_gym.nl2scratch.text import program_lines

Program = str | Iterable[str]


def normalize_program(program: Program | None) -> list[str]:
    """Non-blank lines, stripped, inner whitespace collapsed."""
    return [" ".join(line.split()) for line in program_lines(program)]


def program_text(program: Program | None) -> str:
    """The robust protocol's metric text: the normalised lines joined by newlines."""
    return "\n".join(normalize_program(program))


@dataclass(frozen=True)
class TextMetrics:
    """EM and token F1 of texts as ``normalise`` makes them."""

    normalise: Callable[[str], str]

    def exact_match(self, prediction: str, reference: str) -> float:
        """1.0 when the normalised texts are equal, else 0.0."""
        return float(self.normalise(prediction) == self.normalise(reference))

    def token_f1(self, prediction: str, reference: str) -> float:
        """Token-level F1 between the normalised texts."""
        pred = Counter(self.normalise(prediction).split())
        gold = Counter(self.normalise(reference).split())
        if not pred and not gold:
            return 1.0
        overlap = sum((pred & gold).values())
        if overlap == 0:
            return 0.0
        precision = overlap / sum(pred.values())
        recall = overlap / sum(gold.values())
        return 2 * precision * recall / (precision + recall)


ROBUST_TEXT = TextMetrics(program_text)


def exact_match(prediction: Program | None, reference: Program | None) -> bool:
    """Whether the programs are equal after the robust whitespace normalisation."""
    return bool(ROBUST_TEXT.exact_match(prediction, reference))  # type: ignore[arg-type]


def token_f1(prediction: Program | None, reference: Program | None) -> float:
    """Token-level F1 between the robustly normalised programs."""
    return ROBUST_TEXT.token_f1(prediction, reference)  # type: ignore[arg-type]
