"""The oracle in primitive mode (``make_agent("oracle", mode="primitive")``).

It solves a task from its golden project with mouse and keyboard actions only; the planning is the
composite oracle's (golden vs live block trees), the execution is in
:mod:`scratch_gym.agents.primitive_oracle`.
"""

from __future__ import annotations

from scratch_gym.agents.primitive_oracle import PrimitiveOracleAgent

OracleAgent = PrimitiveOracleAgent

__all__ = ["OracleAgent"]
