"""Generation protocols of ``eval --suite nl2scratch``: how a model is asked for a program.

* ``paper``: the NL2Scratch paper's protocol: one generation, greedy (temperature 0), at most
  384 new tokens, the reply is the program as plain text (no JSON wrapper), no project context,
  one attempt (no parser feedback); optionally ``shots`` retrieved examples in the prompt and
  ``samples`` sampled candidates for reranking.
* ``retry``: scratch-gym's own agent loop (the default, as before this option existed): up to
  3 programs per episode with the parser's error fed back, the project's context in the prompt,
  a JSON reply (``{"program": ...}``) re-asked once when it cannot be read, 1,024 new tokens.

Both are scored the same way, by the ``paper`` scoring protocol
(:mod:`~scratch_gym.nl2scratch.protocols`): post-processing as the published scorer does, then
EM, F1, PS, SAC_nl and SAC_ref. The prompts are scratch-gym's own: the paper does not print its
prompts.
"""

from __future__ import annotations

from dataclasses import dataclass

PAPER_MAX_TOKENS = 384


@dataclass(frozen=True)
class GenerationProtocol:
    """One named way of asking for a program (see the module docstring)."""

    name: str
    attempts: int  # programs an episode may submit (the environment's budget)
    max_tokens: int  # new tokens per generation
    json_reply: bool  # the reply is a JSON object {"program": ...} (else plain text)
    context: bool  # the project's context (sprites, variables ...) is in the prompt
    parse_retries: int  # re-asks of the model after a reply that cannot be read

    def describe(self) -> str:
        """One line for table titles."""
        reply = "JSON reply" if self.json_reply else "plain-text reply"
        context = ", project context" if self.context else ""
        feedback = " with parser feedback" if self.attempts > 1 else ""
        return (
            f"{self.name}: {self.attempts} attempt{'s' if self.attempts > 1 else ''}{feedback}, "
            f"{reply}{context}, at most {self.max_tokens} new tokens"
        )


GENERATION_PROTOCOLS: dict[str, GenerationProtocol] = {
    "paper": GenerationProtocol("paper", 1, PAPER_MAX_TOKENS, False, False, 0),
    "retry": GenerationProtocol("retry", 3, 1024, True, True, 1),
}
DEFAULT_GENERATION = "retry"


def get_generation_protocol(name: str | None = None) -> GenerationProtocol:
    """A generation protocol by name (``None``: the default, ``retry``)."""
    name = name or DEFAULT_GENERATION
    if name not in GENERATION_PROTOCOLS:
        raise ValueError(
            f"unknown generation protocol {name!r}; choose one of {', '.join(GENERATION_PROTOCOLS)}"
        )
    return GENERATION_PROTOCOLS[name]


def check_generation_options(
    protocol: str | None,
    *,
    shots: int = 0,
    examples: str | None = None,
    samples: int = 1,
    temperature: float = 0.0,
    top_p: float | None = None,
) -> None:
    """ValueError, naming the option, for settings a generation protocol does not take: retrieval
    (``shots`` with an ``examples`` file) and sampling (``samples`` > 1 with a positive
    ``temperature``, optionally ``top_p``) belong to the ``paper`` protocol, which is otherwise
    greedy."""
    name = get_generation_protocol(protocol).name
    extras = {"--shots": shots, "--examples": examples, "--samples": samples > 1, "--top-p": top_p}
    given = [flag for flag, value in extras.items() if value]
    if name != "paper" and given:
        verb = "applies" if len(given) == 1 else "apply"
        raise ValueError(f"{', '.join(given)} {verb} to --protocol paper only, not {name}")
    if name != "paper":
        return
    if shots < 0:
        raise ValueError(f"--shots must be 0 or more, got {shots}")
    if bool(shots) != bool(examples):
        raise ValueError(
            "--shots K needs --examples JSONL (the retrieval examples) and --examples needs --shots K"
            " (K >= 1)"
        )
    if samples < 1:
        raise ValueError(f"--samples must be 1 or more, got {samples}")
    if samples == 1 and temperature != 0:
        raise ValueError(
            f"--protocol paper generates greedily (temperature 0), got --temperature {temperature}"
            " (sampling: --samples N with N > 1)"
        )
    if samples > 1 and temperature <= 0:
        raise ValueError(
            f"--samples {samples} needs --temperature above 0 (the paper samples at 0.7)"
        )
    if top_p is not None and not 0 < top_p <= 1:
        raise ValueError(f"--top-p must be in (0, 1], got {top_p}")
    if top_p is not None and samples == 1:
        raise ValueError("--top-p applies to sampling (--samples N with N > 1)")
