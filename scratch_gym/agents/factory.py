"""Agents by name, for the command line and for worker processes: ``make_agent(name, mode, **kw)``."""

from __future__ import annotations

from typing import Any

from scratch_gym.agents.base import Agent

AGENTS = ("random", "oracle", "llm")


def make_agent(name: str, mode: str = "primitive", **kwargs: Any) -> Agent:
    """``random`` (seed), ``oracle`` (composite mode: the composite oracle), or ``llm`` (base_url, model, api_key_env, coords, history,
    max_retries, backoff_s, timeout_s, temperature, max_tokens, parse_retries)."""
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
