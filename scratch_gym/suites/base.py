"""What every suite gives the one runner: the Task protocol and the Suite interface.

A **task** of any suite (the task suite, ScratchWorld's imported tasks, single-drag tasks,
perception questions, NL2Scratch items) has an ``id``, a ``suite``, a ``category`` (the row it
counts in), an ``instruction``, and ``reset_options()``: how its environment is set up for it
(``env.reset(options=task.reset_options())``). Its outcome is scored by its environment; its
oracle is the suite's ``oracle`` agent (``make_agent("oracle", mode)``).

A **suite** is a small, picklable value (it travels to worker processes and Ray actors) that
selects its tasks, loads one by id, makes its environment for a mode, turns an episode's last
``info`` into record fields, and prints its paper's report table and JSON figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from scratch_gym.task_selection import select_from


@runtime_checkable
class Task(Protocol):
    """The one task protocol every suite's tasks implement."""

    @property
    def id(self) -> str: ...

    @property
    def suite(self) -> str: ...

    @property
    def category(self) -> str: ...

    @property
    def instruction(self) -> str: ...

    def reset_options(self) -> dict[str, Any]: ...


class Suite:
    """One benchmark suite as the runner sees it (subclasses are frozen dataclasses)."""

    name: str = ""
    modes: tuple[str, ...] = ()  # the agent modes it runs in; the first is the default

    @property
    def source(self) -> str:
        """Where its tasks come from, for the results file (a path, a seed, ``built-in``)."""
        return "built-in"

    @property
    def variant(self) -> str:
        """What sets apart runs of the same tasks in one results file (e.g. a setting)."""
        return ""

    def select(
        self, categories: Sequence[str] | None = None, task_ids: Sequence[str] | None = None
    ) -> list[Task]:
        """The tasks to run, sorted by id: those named by ``task_ids``, else those of
        ``categories``, else all; one task vocabulary for every suite (:func:`select_among`)."""
        raise NotImplementedError

    def load(self, task_id: str) -> Task:
        """One task by id (worker processes rebuild their job's task with it)."""
        raise NotImplementedError

    def make_env(self, mode: str, env_spec: Any) -> Any:
        """A new environment for agents acting in ``mode``."""
        raise NotImplementedError

    def record_fields(self, mode: str) -> dict[str, Any]:
        """Fields every record of this suite in ``mode`` carries (e.g. the observation setting)."""
        return {}

    def judge(self, task: Task, info: dict[str, Any], action: Any = None) -> dict[str, Any]:
        """Record fields from the episode's last ``info`` (and the last ``action``): ``success``
        and ``psr`` where the environment does not report them, and the suite's own figures."""
        return {}

    def report(self, records: list[dict[str, Any]]) -> str:
        """The report table in the layout of the suite's paper."""
        raise NotImplementedError

    def figures(self, records: list[dict[str, Any]]) -> dict[str, Any]:
        """The suite's own figures for the JSON summary."""
        return {}

    def check_mode(self, mode: str) -> None:
        if mode not in self.modes:
            raise ValueError(
                f"the {self.name} suite runs in mode {' or '.join(self.modes)}, not {mode!r}"
            )


T = TypeVar("T", bound=Task)


def select_among(
    tasks: Sequence[T],
    categories: Sequence[str] | None = None,
    task_ids: Sequence[str] | None = None,
    id_prefix: str = "",
) -> list[T]:
    """The tasks of ``tasks`` that a suite's selection names, sorted by id, read in the one task
    vocabulary (:func:`~scratch_gym.task_selection.select_ids`): the ids and categories of
    ``task_ids``, else the categories, else all. An id may leave out ``id_prefix`` (ScratchWorld's
    ``T1_001`` for ``scratchworld-T1_001``). A TaskSelectionError (ValueError) names an unknown
    entry, the closest id or category, and what is allowed."""
    ids = {t.id for t in tasks}
    spec = list(task_ids) if task_ids else list(categories) if categories else None
    if spec is not None and id_prefix:
        spec = [e if e in ids or id_prefix + e not in ids else id_prefix + e for e in spec]
    return select_from(spec, tasks)
