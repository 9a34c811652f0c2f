"""Agents by name, for the command line and for worker processes: ``make_agent(name, mode, **kw)``."""

from __future__ import annotations

from typing import Any

from scratch_gym.agents.answering import (
    AnswerOracleAgent,
    AnswerRandomAgent,
    ProgramOracleAgent,
    ProgramRandomAgent,
)
from scratch_gym.agents.base import AGENT_MODES, Agent
from scratch_gym.agents.single_drag import (
    DragHeuristicAgent,
    DragOracleAgent,
    DragPolicyAgent,
    DragRandomAgent,
)

AGENTS = ("random", "oracle", "llm", "drag-policy", "drag-heuristic")
# the options of the llm agent under the nl2scratch ``paper`` generation protocol (the others:
# coords, history ... belong to the retrying agent and are left out)
PAPER_KEYS = ("shots", "examples", "samples", "temperature", "top_p")
# agents that act in one mode only
ONE_MODE = {"drag-policy": "single_drag", "drag-heuristic": "single_drag"}
# the one-step suites' built-in agents, by mode
BUILT_IN: dict[str, dict[str, type[Agent]]] = {
    "single_drag": {
        "oracle": DragOracleAgent,
        "random": DragRandomAgent,
        "drag-policy": DragPolicyAgent,
        "drag-heuristic": DragHeuristicAgent,
    },
    "perception": {"oracle": AnswerOracleAgent, "random": AnswerRandomAgent},
    "nl2scratch": {"oracle": ProgramOracleAgent, "random": ProgramRandomAgent},
}


def make_agent(name: str, mode: str = "primitive", **kwargs: Any) -> Agent:
    """An agent for ``mode`` (one of ``AGENT_MODES``): ``random`` (seed), ``oracle`` (each mode has its
    own: the primitive or composite oracle, the single-drag, perception or NL2Scratch oracle), or
    ``llm`` (base_url, model, api_key_env, coords, history, max_retries, backoff_s, timeout_s,
    temperature, max_tokens, parse_retries; in composite mode ``block_reference=True`` puts the
    block reference into its system prompt; in nl2scratch mode ``protocol="paper"`` makes the
    paper protocol's one-shot writer with shots, examples, samples, temperature, top_p); in single_drag mode also ``drag-policy`` (the
    shipped checkpoint, or ``drag-policy:PATH``) and ``drag-heuristic``."""
    if mode not in AGENT_MODES:
        raise ValueError(f"unknown mode {mode!r}; allowed: {', '.join(AGENT_MODES)}")
    name, kwargs = split_agent_name(name, kwargs)
    check_agent_mode(name, mode)
    if name in ONE_MODE:
        return BUILT_IN[mode][name](mode, **kwargs)
    if name in ("oracle", "random") and mode in BUILT_IN:
        return BUILT_IN[mode][name](mode, **kwargs)
    if name == "random":
        from scratch_gym.agents.random_agent import RandomAgent

        return RandomAgent(mode, **kwargs)
    if name == "oracle" and mode == "composite":
        from scratch_gym.agents.composite_oracle import CompositeOracleAgent

        return CompositeOracleAgent(**kwargs)
    if name == "oracle":
        from scratch_gym.agents.primitive_oracle import PrimitiveOracleAgent

        return PrimitiveOracleAgent(mode, **kwargs)
    if name == "llm":
        from scratch_gym.agents.chat_client import ChatClient
        from scratch_gym.agents.llm import LLMAgent
        from scratch_gym.agents.prompts import system_prompt

        block_reference = bool(kwargs.pop("block_reference", False))
        prompt = system_prompt(mode, block_reference=True) if block_reference else None  # checks
        client_keys = ("base_url", "model", "api_key_env", "max_retries", "backoff_s", "timeout_s")
        client = ChatClient(**{k: kwargs.pop(k) for k in client_keys if k in kwargs})
        protocol = kwargs.pop("protocol", None)
        if protocol is not None and mode != "nl2scratch":
            raise ValueError(f"a generation protocol is for nl2scratch mode, not {mode!r}")
        if mode == "nl2scratch":
            from scratch_gym.nl2scratch.generation import get_generation_protocol

            generation = get_generation_protocol(protocol)
            if generation.name == "paper":
                from scratch_gym.agents.program_writer import ProgramWriterAgent

                kwargs = {k: v for k, v in kwargs.items() if k in PAPER_KEYS}
                return ProgramWriterAgent(client, **kwargs)
            kwargs.setdefault("max_tokens", generation.max_tokens)
            kwargs.setdefault("parse_retries", generation.parse_retries)
        agent = LLMAgent(client, mode=mode, **kwargs)
        if prompt is not None:
            agent.system = prompt  # the composite prompt with the block reference
        return agent
    raise ValueError(f"unknown agent {name!r}; allowed: {', '.join(AGENTS)}")


def check_agent_mode(name: str, mode: str) -> None:
    """ValueError when the agent ``name`` (``drag-policy:PATH`` included) cannot act in ``mode``."""
    base = name.partition(":")[0]
    if base in ONE_MODE and mode != ONE_MODE[base]:
        raise ValueError(
            f"the {base} agent acts in {ONE_MODE[base]} mode only (--suite single-drag), "
            f"not {mode!r}"
        )


def split_agent_name(name: str, kwargs: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
    """``drag-policy:PATH`` -> (``drag-policy``, checkpoint=PATH); other names as they are.
    ValueError for a name no agent has (did-you-mean from ``AGENTS``)."""
    kwargs = dict(kwargs or {})
    base, sep, arg = name.partition(":")
    if base == "drag-policy" and sep:
        if not arg:
            raise ValueError("drag-policy:PATH needs a checkpoint path after the colon")
        kwargs["checkpoint"] = arg
        return base, kwargs
    if name not in AGENTS:
        import difflib

        close = difflib.get_close_matches(name, AGENTS, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValueError(
            f"unknown agent {name!r}{hint}; allowed: {', '.join(AGENTS)}, drag-policy:PATH"
        )
    return name, kwargs
