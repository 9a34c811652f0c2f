"""Tasks, execution-based evaluation in virtual time, and PSR rewards.

* ``load_task(id)``, ``list_tasks(category)``, ``sample_task(seed)``: the shipped suites
  (``tasks/<category>/<id>/task.toml``, schema in :mod:`scratch_gym.tasks.schema`).
* ``Evaluator(page, task).evaluate()``: run the tests on a copy of the editor's project in a second
  VM in the page, in deterministic virtual time -> ``EvaluationResult(tests, psr, success)``.
* ``TaskEpisode(page, task)``: what the environment composes for rewards (``start``/``step``).
* ``Run`` and the conditions (``Sprite``, ``Var``, ``Said``...): the API test functions use.
* ScratchWorld's own tasks are imported and scored by :mod:`scratch_gym.scratchworld`.
"""

from __future__ import annotations

from scratch_gym.tasks.conditions import (
    Backdrop,
    Clones,
    Cond,
    List,
    ListLength,
    Question,
    Said,
    Sprite,
    Threads,
    Timer,
    Var,
    asking,
    idle,
)
from scratch_gym.tasks.evaluator import EvaluationResult, Evaluator, TestResult
from scratch_gym.tasks.loader import budget, read_task
from scratch_gym.tasks.registry import (
    TaskRegistry,
    UnknownTaskError,
    default_registry,
    list_tasks,
    load_task,
    sample_task,
)
from scratch_gym.tasks.rewards import TaskEpisode
from scratch_gym.tasks.schema import Budget, Task, TaskError
from scratch_gym.tasks.test_api import Run, SpriteState, TestFailure, Utterance

__all__ = [
    "Backdrop",
    "Budget",
    "Clones",
    "Cond",
    "EvaluationResult",
    "Evaluator",
    "List",
    "ListLength",
    "Question",
    "Run",
    "Said",
    "Sprite",
    "SpriteState",
    "Task",
    "TaskEpisode",
    "TaskError",
    "TaskRegistry",
    "TestFailure",
    "TestResult",
    "Threads",
    "Timer",
    "UnknownTaskError",
    "Utterance",
    "Var",
    "asking",
    "budget",
    "default_registry",
    "idle",
    "list_tasks",
    "load_task",
    "read_task",
    "sample_task",
]
