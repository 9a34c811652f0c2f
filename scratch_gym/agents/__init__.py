"""Agents usable as policies: ``act(observation, info) -> action`` and ``reset(task)``."""
