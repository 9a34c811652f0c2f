"""The primitive oracle: solves tasks from their golden projects with mouse and keyboard only."""

from scratch_gym.agents.primitive_oracle.agent import PrimitiveOracleAgent

__all__ = ["PrimitiveOracleAgent"]
