"""Task selection: find tasks by id or category, and sample one with a seed.

The default registry reads the suites shipped under :func:`scratch_gym.paths.tasks_dir`
(``tasks/<category>/<task-id>/task.toml``); more tasks (e.g. imported ScratchWorld tasks) can be
added to a registry with :meth:`TaskRegistry.add`.
"""

from __future__ import annotations

import difflib
import random
from functools import lru_cache
from pathlib import Path

from scratch_gym.paths import tasks_dir
from scratch_gym.tasks.loader import read_task
from scratch_gym.tasks.schema import TASK_FILE, Task, TaskError


class UnknownTaskError(KeyError):
    """No task has this id; the message lists the closest ids."""

    def __init__(self, task_id: str, known: list[str]) -> None:
        close = difflib.get_close_matches(task_id, known, n=5, cutoff=0.4)
        hint = f"; did you mean: {', '.join(close)}" if close else ""
        self.task_id = task_id
        self.close_matches = close
        super().__init__(f"unknown task {task_id!r}{hint} ({len(known)} tasks known)")

    def __str__(self) -> str:
        return str(self.args[0])


class TaskRegistry:
    """Tasks by id, read lazily from a root folder of ``<category>/<task-id>/`` folders."""

    def __init__(self, root: str | Path | None = None) -> None:
        self.root = Path(root) if root is not None else tasks_dir()
        self._folders: dict[str, Path] | None = None
        self._tasks: dict[str, Task] = {}

    def _index(self) -> dict[str, Path]:
        if self._folders is None:
            self._folders = {}
            if self.root.is_dir():
                for file in sorted(self.root.glob(f"*/*/{TASK_FILE}")):
                    task_id = file.parent.name
                    if task_id in self._folders:
                        raise TaskError(
                            file,
                            "id",
                            f"task id {task_id!r} is used twice: {self._folders[task_id]} and "
                            f"{file.parent}; task ids must be unique across categories",
                        )
                    self._folders[task_id] = file.parent
        return self._folders

    def ids(self) -> list[str]:
        return sorted(set(self._index()) | set(self._tasks))

    def add(self, task: Task) -> None:
        """Register a task built elsewhere (it replaces one with the same id)."""
        self._tasks[task.id] = task

    def load(self, task_id: str) -> Task:
        """The task ``task_id`` (validated); UnknownTaskError lists close matches."""
        if task_id in self._tasks:
            return self._tasks[task_id]
        folder = self._index().get(task_id)
        if folder is None:
            raise UnknownTaskError(task_id, self.ids())
        task = self._tasks[task_id] = read_task(folder)
        return task

    def list(self, category: str | None = None) -> list[Task]:
        """All tasks, or those of one category, sorted by id."""
        tasks = [self.load(i) for i in self.ids()]
        if category is not None:
            tasks = [t for t in tasks if t.category == category]
        return tasks

    def categories(self) -> list[str]:
        return sorted({t.category for t in self.list()})

    def sample(self, seed: int | random.Random | None = None, category: str | None = None) -> Task:
        """One task drawn uniformly (from ``category`` if given), reproducible with ``seed``."""
        tasks = self.list(category)
        if not tasks:
            raise LookupError(f"no tasks in category {category!r}" if category else "no tasks")
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        return tasks[rng.randrange(len(tasks))]


@lru_cache(maxsize=1)
def default_registry() -> TaskRegistry:
    """The registry of the tasks shipped with the package."""
    return TaskRegistry()


def load_task(task_id: str) -> Task:
    return default_registry().load(task_id)


def list_tasks(category: str | None = None) -> list[Task]:
    return default_registry().list(category)


def sample_task(seed: int | random.Random | None = None, category: str | None = None) -> Task:
    return default_registry().sample(seed, category)
