"""ScratchWorld tasks paired with their golden projects, so that the oracles can play them.

A ScratchWorld checkout ships the reference solutions next to the starting projects, as
``scratch-gui/static/<stem>_golden.sb3``, matched to tasks by name:

* ``<task name>_golden.sb3`` when it exists (create, compute and extend tasks:
  ``calculate_gcd`` -> ``calculate_gcd_golden.sb3``);
* else the longest ``<stem>_golden.sb3`` whose stem starts the task name followed by ``_`` (debug
  tasks fix one bug of a shared project: ``maze_starter_goal_detection_error`` ->
  ``maze_starter_golden.sb3``).

``*_golden_old.sb3`` files are earlier versions and never matched. A task without a golden keeps
``golden = None`` (the oracles then report it as unsupported).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from scratch_gym.tasks.schema import ProjectRef, Task
from scratch_gym.tasks.scratchworld import ID_PREFIX, STATIC_DIR, ScratchWorldCheckout

GOLDEN_SUFFIX = "_golden.sb3"


def golden_stems(root: str | Path) -> dict[str, Path]:
    """Every ``<stem>_golden.sb3`` of a checkout's static folder, by stem."""
    static = Path(root) / STATIC_DIR
    return {p.name[: -len(GOLDEN_SUFFIX)]: p for p in sorted(static.glob(f"*{GOLDEN_SUFFIX}"))}


def match_golden(name: str, stems: dict[str, Path]) -> Path | None:
    """The golden project of the task ``name`` (see the module docstring), or None."""
    if name in stems:
        return stems[name]
    prefixes = [s for s in stems if name.startswith(s + "_")]
    return stems[max(prefixes, key=len)] if prefixes else None


def with_golden(task: Task, stems: dict[str, Path]) -> Task:
    """``task`` with its golden project set (unchanged when the checkout has none for it)."""
    path = match_golden(task.id.removeprefix(ID_PREFIX), stems)
    return dataclasses.replace(task, golden=ProjectRef(path)) if path else task


def scratchworld_tasks(
    root: str | Path,
    category: str | None = None,
    names: list[str] | None = None,
    time: str = "virtual",
) -> list[Task]:
    """The checkout's tasks (all, one category's, or those named), paired with their goldens;
    ``time``: their scripts run in virtual (default) or real time."""
    checkout = ScratchWorldCheckout(root, time=time)
    stems = golden_stems(checkout.root)
    if names:
        return [with_golden(checkout.load(n), stems) for n in names]
    return [with_golden(t, stems) for t in checkout.tasks(category)]
