"""The NL2Scratch ``paper`` generation protocol as an agent: one request per description.

The prompt (:func:`~scratch_gym.agents.prompts.paper_program_messages`) holds the description and,
with ``shots``, the K TF-IDF-nearest examples of the ``examples`` file
(:mod:`~scratch_gym.nl2scratch.retrieval`; never the item itself). The reply is the program as
plain text, submitted as written (the scorer post-processes it). One greedy generation of at most
384 new tokens; with ``samples`` N > 1, N choices sampled at ``temperature`` (and ``top_p``) with
their log-probabilities: the first is submitted, and all go into the result record as
``candidates`` (``{"text", "logprob_mean"}``, the format the selection strategies read).
"""

from __future__ import annotations

from typing import Any

from scratch_gym.agents.base import Agent, AgentError
from scratch_gym.agents.chat_client import ChatClient
from scratch_gym.agents.prompts import paper_program_messages
from scratch_gym.nl2scratch.generation import check_generation_options, get_generation_protocol


class ProgramWriterAgent(Agent):
    """A chat model writing NL2Scratch programs under the ``paper`` generation protocol."""

    name = "llm"
    mode = "nl2scratch"

    def __init__(
        self,
        client: ChatClient,
        shots: int = 0,
        examples: str | None = None,
        samples: int = 1,
        temperature: float = 0.0,
        top_p: float | None = None,
    ) -> None:
        super().__init__()
        check_generation_options(
            "paper", shots=shots, examples=examples, samples=samples,
            temperature=temperature, top_p=top_p,
        )  # fmt: skip
        self.client = client
        self.shots = shots
        self.samples = samples
        self.params: dict[str, Any] = {
            "temperature": temperature,
            "max_tokens": get_generation_protocol("paper").max_tokens,
        }
        if top_p is not None:
            self.params["top_p"] = top_p
        if samples > 1:
            self.params.update(n=samples, logprobs=True)
        self.retriever = None
        if shots:
            from scratch_gym.nl2scratch.retrieval import Retriever, read_examples

            self.retriever = Retriever(read_examples(str(examples)))
        self._key: str | None = None

    def reset(self, task: Any = None) -> None:
        super().reset(task)
        self._key = str(getattr(task, "key", "") or getattr(task, "id", "")) or None

    def act(self, observation: Any, info: dict[str, Any]) -> str:
        description = (
            str(observation.get("description", "")) if isinstance(observation, dict) else ""
        )
        key = self._key or (str(info.get("key")) if info.get("key") else None)
        shots = self.retriever.nearest(description, self.shots, key) if self.retriever else []
        messages = paper_program_messages(description, [(e.nl, e.program) for e in shots])
        reply = self.client.complete(messages, **self.params)
        record: dict[str, Any] = {"shots": self.shots, "samples": self.samples}
        if shots:
            record["retrieved"] = [e.key for e in shots]
        if self.samples > 1:
            if len(reply.choices) != self.samples:
                raise AgentError(
                    f"asked the endpoint for {self.samples} choices (n), got {len(reply.choices)}"
                )
            if any(c.logprob_mean is None for c in reply.choices):
                raise AgentError("the endpoint returned no token log-probabilities (logprobs)")
            record["candidates"] = [
                {"text": c.text, "logprob_mean": c.logprob_mean} for c in reply.choices
            ]
        self.info = {
            "reply": reply.text,
            "http_attempts": reply.attempts,
            "usage": reply.usage,
            "record": record,
        }
        return reply.text
