"""The eleven SAC slots and their container.

Scalar slots hold one value or None; set slots hold frozensets of strings. The slot names and their
order follow the NL2Scratch paper.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

SCALAR_SLOTS = ("event_type", "event_target")
SET_SLOTS = ("action_types", "loop_types", "loop_counts", "condition_types", "numeric_values")
NAME_SLOTS = ("variable_names", "costume_names", "backdrop_names", "broadcast_names")
SLOT_ORDER = SCALAR_SLOTS + SET_SLOTS + NAME_SLOTS


@dataclass(frozen=True)
class Slots:
    """Slot values of one program or one description."""

    event_type: str | None = None
    event_target: str | None = None
    action_types: frozenset[str] = field(default_factory=frozenset)
    loop_types: frozenset[str] = field(default_factory=frozenset)
    loop_counts: frozenset[str] = field(default_factory=frozenset)
    condition_types: frozenset[str] = field(default_factory=frozenset)
    numeric_values: frozenset[str] = field(default_factory=frozenset)
    variable_names: frozenset[str] = field(default_factory=frozenset)
    costume_names: frozenset[str] = field(default_factory=frozenset)
    backdrop_names: frozenset[str] = field(default_factory=frozenset)
    broadcast_names: frozenset[str] = field(default_factory=frozenset)

    def get(self, slot: str) -> str | frozenset[str] | None:
        """The value of ``slot`` by name."""
        return getattr(self, slot)

    def as_dict(self) -> dict[str, str | list[str] | None]:
        """JSON-friendly form: sets become sorted lists."""
        out: dict[str, str | list[str] | None] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = sorted(value) if isinstance(value, frozenset) else value
        return out
