"""Choosing one program among sampled candidates: the paper's five selection strategies.

* ``first``: the first candidate (decoding order);
* ``likelihood``: the highest length-normalised log-likelihood (needs log-probs);
* ``sac``: the highest SAC_nl against the description;
* ``parse_likelihood`` / ``parse_sac``: the same among the candidates the parser accepts, or among
  all when none does.

As in the paper, candidates are judged as generated (before post-processing), with the protocol's
SAC_nl and parser, and the first candidate wins ties.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from scratch_gym.nl2scratch.protocols import ScoringProtocol

STRATEGIES = ("first", "likelihood", "sac", "parse_likelihood", "parse_sac")


class SelectionError(ValueError):
    """A strategy that cannot be applied (unknown, or likelihood without log-probs)."""


def _argmax(eligible: Sequence[int], key: Callable[[int], float]) -> int:
    best = eligible[0]
    best_value = key(best)
    for i in eligible[1:]:
        value = key(i)
        if value > best_value:
            best, best_value = i, value
    return best


def select(
    strategy: str,
    candidates: Sequence[str],
    description: str,
    protocol: ScoringProtocol,
    logprobs: Sequence[float] | None = None,
) -> int:
    """Index of the candidate ``strategy`` picks."""
    if strategy not in STRATEGIES:
        raise SelectionError(
            f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}"
        )
    if not candidates:
        raise SelectionError("selection needs at least one candidate")
    if strategy == "first" or len(candidates) == 1:
        return 0
    eligible = list(range(len(candidates)))
    if strategy.startswith("parse_"):
        eligible = [i for i in eligible if protocol.candidate_parses(candidates[i])] or eligible
    if strategy.endswith("likelihood"):
        if logprobs is None or len(logprobs) != len(candidates):
            raise SelectionError(
                f"{strategy} selection needs one log-prob per candidate ('logprob_mean' in each "
                "candidate object or a 'candidate_logprobs' list)"
            )
        return _argmax(eligible, lambda i: logprobs[i])
    return _argmax(eligible, lambda i: protocol.sac_nl(candidates[i], description).score)
