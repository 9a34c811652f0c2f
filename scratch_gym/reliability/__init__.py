"""Reliability tooling: action fuzzing and soak runs."""
