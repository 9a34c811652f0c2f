"""NL2Scratch items as tasks of the one runner: a description to write a program for.

Two sources: a references JSONL (``{key, nl, pseudocode}`` lines, e.g. the NL2Scratch test set),
or the shipped task suite (a task's instruction as the description, its golden scripts for the
sprite they change most as the reference; ``ProgramEnv``'s task episodes).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class ProgramItem:
    """One description with its reference program; ``task_id`` for an item of the task suite."""

    id: str
    instruction: str
    reference: tuple[str, ...]
    key: str = ""
    task_id: str | None = None
    suite = "nl2scratch"

    @property
    def category(self) -> str:
        return "tasks" if self.task_id else "corpus"

    def reset_options(self) -> dict[str, Any]:
        """``ProgramEnv.reset(options=...)`` for this item."""
        if self.task_id:
            return {"task": self.task_id}
        return {"nl": self.instruction, "reference": list(self.reference), "key": self.key}


def corpus_items(path: str | Path) -> list[ProgramItem]:
    """The items of a references JSONL, with ids ``nl2s-<line index>``."""
    from scratch_gym.nl2scratch.episodes import as_lines, read_corpus

    items = []
    for i, row in enumerate(read_corpus(path)):
        reference = row.get("pseudocode", row.get("gold_pseudocode"))
        items.append(
            ProgramItem(
                id=f"nl2s-{i:04d}",
                instruction=str(row["nl"]),
                reference=tuple(as_lines(reference)) if reference is not None else (),
                key=str(row.get("key", "")),
            )
        )
    return items


def task_items(task_ids: list[str] | None = None) -> list[ProgramItem]:
    """Items made from the shipped tasks that have a starting and a golden project."""
    from scratch_gym.nl2scratch.episodes import task_episode
    from scratch_gym.tasks import list_tasks, load_task

    tasks = [load_task(t) for t in task_ids] if task_ids else list_tasks()
    items = []
    for task in tasks:
        if task.start is None or task.golden is None:
            continue
        episode = task_episode(task)
        items.append(
            ProgramItem(
                id=task.id,
                instruction=episode.description,
                reference=tuple(episode.reference or ()),
                key=task.id,
                task_id=task.id,
            )
        )
    return items
