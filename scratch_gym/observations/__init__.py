"""Observations: pixels, element lists and program text."""
