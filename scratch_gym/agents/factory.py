"""Agents by name, for the command line and for worker processes: ``make_agent(name, mode, **kw)``."""

from __future__ import annotations

from typing import Any

from scratch_gym.agents.answering import (
    AnswerOracleAgent,
    AnswerRandomAgent,
    ProgramOracleAgent,
    ProgramRandomAgent,
)
from scratch_gym.agents.base import MODES, Agent
from scratch_gym.agents.single_drag import DragOracleAgent, DragRandomAgent

AGENTS = ("random", "oracle", "llm")
# the one-step suites' built-in agents, by mode
BUILT_IN: dict[str, dict[str, type[Agent]]] = {
    "single_drag": {"oracle": DragOracleAgent, "random": DragRandomAgent},
    "perception": {"oracle": AnswerOracleAgent, "random": AnswerRandomAgent},
    "nl2scratch": {"oracle": ProgramOracleAgent, "random": ProgramRandomAgent},
}


def make_agent(name: str, mode: str = "primitive", **kwargs: Any) -> Agent:
    """An agent for ``mode`` (one of ``MODES``): ``random`` (seed), ``oracle`` (each mode has its
    own: the primitive or composite oracle, the single-drag, perception or NL2Scratch oracle), or
    ``llm`` (base_url, model, api_key_env, coords, history, max_retries, backoff_s, timeout_s,
    temperature, max_tokens, parse_retries)."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; allowed: {', '.join(MODES)}")
    if name in ("oracle", "random") and mode in BUILT_IN:
        return BUILT_IN[mode][name](mode, **kwargs)
    if name == "random":
        from scratch_gym.agents.random_agent import RandomAgent

        return RandomAgent(mode, **kwargs)
    if name == "oracle" and mode == "composite":
        from scratch_gym.agents.composite_oracle import CompositeOracleAgent

        return CompositeOracleAgent(**kwargs)
    if name == "oracle":
        from scratch_gym.agents.oracle import OracleAgent

        return OracleAgent(mode, **kwargs)
    if name == "llm":
        from scratch_gym.agents.chat_client import ChatClient
        from scratch_gym.agents.llm import LLMAgent

        client_keys = ("base_url", "model", "api_key_env", "max_retries", "backoff_s", "timeout_s")
        client = ChatClient(**{k: kwargs.pop(k) for k in client_keys if k in kwargs})
        return LLMAgent(client, mode=mode, **kwargs)
    raise ValueError(f"unknown agent {name!r}; allowed: {', '.join(AGENTS)}")
