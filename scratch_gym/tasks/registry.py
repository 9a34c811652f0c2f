"""The task registry: find tasks by id or category, select some, and sample one with a seed.

A registry reads the suites shipped under :func:`scratch_gym.paths.tasks_dir` and any number of
the user's own task folders, each laid out the same way (``<category>/<task-id>/task.toml``) and
read by the same loader. The default registry adds the folders named in ``$SCRATCH_GYM_TASKS``
(an ``os.pathsep``-separated list; the CLI's ``--tasks-dir`` adds to it). A task id defined twice
(a user's task with a built-in id, or in two folders) is an error naming both files. More tasks
(e.g. imported ScratchWorld tasks) can be added to a registry with :meth:`TaskRegistry.add`.
"""

from __future__ import annotations

import difflib
import os
import random
from collections.abc import Iterable, Sequence
from pathlib import Path

from scratch_gym.paths import SINGLE_DRAG_DIR, tasks_dir
from scratch_gym.task_selection import select_from
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


TASKS_ENV = "SCRATCH_GYM_TASKS"
LISTING = "scratch-gym tasks list"  # the command that lists the task ids


def env_task_dirs() -> list[Path]:
    """The user's task folders named in ``$SCRATCH_GYM_TASKS`` (``os.pathsep``-separated)."""
    value = os.environ.get(TASKS_ENV, "")
    return [Path(p).expanduser() for p in value.split(os.pathsep) if p.strip()]


def check_task_dir(folder: str | Path) -> Path:
    """``folder`` as a task folder, or a clear error when it is not a directory."""
    path = Path(folder).expanduser()
    if not path.is_dir():
        what = "is not a directory" if path.exists() else "does not exist"
        raise TaskError(
            path,
            "<folder>",
            f"task folder {what}; a task folder holds <category>/<task-id>/{TASK_FILE} "
            "(create one with: scratch-gym tasks new ID --category C --dir FOLDER)",
        )
    return path


class TaskRegistry:
    """Tasks by id, read lazily from root folders of ``<category>/<task-id>/`` folders.

    ``root`` is the built-in suite (default: the package's ``tasks/``); ``extra_dirs`` are the
    user's own folders, checked to exist. Ids must be unique over all of them.
    """

    def __init__(
        self, root: str | Path | None = None, extra_dirs: Iterable[str | Path] = ()
    ) -> None:
        self.root = Path(root) if root is not None else tasks_dir()
        self.extra_dirs = _unique([check_task_dir(d) for d in extra_dirs], exclude=self.root)
        self._folders: dict[str, Path] | None = None
        self._tasks: dict[str, Task] = {}

    @property
    def roots(self) -> list[Path]:
        return [self.root, *self.extra_dirs]

    def _index(self) -> dict[str, Path]:
        if self._folders is None:
            folders: dict[str, Path] = {}
            for root in self.roots:
                if not root.is_dir():
                    continue
                for file in sorted(root.glob(f"*/*/{TASK_FILE}")):
                    if file.parent.parent.name == SINGLE_DRAG_DIR:
                        continue  # the Single-Step Drag suite (single_drag/tasks/task.py)
                    task_id = file.parent.name
                    if task_id in folders:
                        raise TaskError(
                            file,
                            "id",
                            f"task id {task_id!r} is used twice: {folders[task_id] / TASK_FILE}"
                            f" and {file}; task ids must be unique across categories and task "
                            "folders (rename one task's folder and its id)",
                        )
                    folders[task_id] = file.parent
            self._folders = folders
        return self._folders

    def folder(self, task_id: str) -> Path:
        """The folder that holds ``task_id``'s ``task.toml``."""
        folder = self._index().get(task_id)
        if folder is None:
            raise UnknownTaskError(task_id, self.ids())
        return folder

    def ids(self) -> list[str]:
        return sorted(set(self._index()) | set(self._tasks))

    def add(self, task: Task) -> None:
        """Register a task built elsewhere (it replaces one with the same id)."""
        self._tasks[task.id] = task

    def load(self, task_id: str) -> Task:
        """The task ``task_id`` (validated); UnknownTaskError lists close matches."""
        if task_id in self._tasks:
            return self._tasks[task_id]
        task = self._tasks[task_id] = read_task(self.folder(task_id))
        return task

    def list(self, category: str | None = None) -> list[Task]:
        """All tasks, or those of one category, sorted by id."""
        tasks = [self.load(i) for i in self.ids()]
        if category is not None:
            tasks = [t for t in tasks if t.category == category]
        return tasks

    def categories(self) -> list[str]:
        return sorted({t.category for t in self.list()})

    def select(self, spec: str | Sequence[str] | None, argument: str | None = None) -> list[str]:
        """The sorted ids ``spec`` selects, in the one task vocabulary
        (:func:`~scratch_gym.task_selection.select_from`: ``"all"``, a category, a task id, or a
        list of task ids and categories); :class:`~scratch_gym.task_selection.TaskSelectionError`
        (a ValueError) names an unknown entry with the closest category or id, after
        ``<argument>=<spec>: `` where ``argument`` is given."""
        chosen = select_from(spec, self.list(), argument=argument, listing=LISTING)
        return [t.id for t in chosen]

    def sample(self, seed: int | random.Random | None = None, category: str | None = None) -> Task:
        """One task drawn uniformly (from ``category`` if given), reproducible with ``seed``."""
        tasks = self.list(category)
        if not tasks:
            raise LookupError(f"no tasks in category {category!r}" if category else "no tasks")
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        return tasks[rng.randrange(len(tasks))]


def _unique(paths: Sequence[Path], exclude: Path) -> list[Path]:
    seen = {exclude.resolve()}
    out = []
    for p in paths:
        if p.resolve() not in seen:
            seen.add(p.resolve())
            out.append(p)
    return out


_default: tuple[str, TaskRegistry] | None = None


def default_registry() -> TaskRegistry:
    """The shipped tasks plus the folders in ``$SCRATCH_GYM_TASKS`` (rebuilt when it changes)."""
    global _default
    key = os.environ.get(TASKS_ENV, "")
    if _default is None or _default[0] != key:
        _default = (key, TaskRegistry(extra_dirs=env_task_dirs()))
    return _default[1]


def registry_for(tasks_dir: str | Path | Sequence[str | Path] | None) -> TaskRegistry:
    """The default registry, plus ``tasks_dir`` (one folder or several) when given."""
    if tasks_dir is None:
        return default_registry()
    dirs = [tasks_dir] if isinstance(tasks_dir, str | Path) else list(tasks_dir)
    return TaskRegistry(extra_dirs=[*dirs, *env_task_dirs()])


def load_task(task_id: str) -> Task:
    return default_registry().load(task_id)


def list_tasks(category: str | None = None) -> list[Task]:
    return default_registry().list(category)


def sample_task(seed: int | random.Random | None = None, category: str | None = None) -> Task:
    return default_registry().sample(seed, category)
