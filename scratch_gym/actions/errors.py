"""The error an invalid agent action produces: reported in the observation, never raised to the loop."""

from __future__ import annotations


class ActionError(ValueError):
    """An action the environment cannot execute; the message says what was wrong and what is allowed."""
