"""Rewards for one episode: the partial success rate (PSR) of a task's tests, as it changes.

The environment composes a :class:`TaskEpisode`::

    episode = TaskEpisode(page, task, every_step=True)
    info = episode.start()              # loads task.start into the editor, evaluates it
    reward, info = episode.step()       # after each action
    reward, info = episode.step(final=True)   # when the episode ends (terminated or truncated)

``reward`` is the change of PSR since the last evaluation, so an episode's return is
final PSR - initial PSR. With ``every_step=False`` (sparse) only ``final=True`` evaluates; other
steps return 0 and the last known figures. An unchanged project is never evaluated twice.

``info`` always holds ``tests`` (list of {name, passed, message}), ``psr``, ``success``,
``initial_psr``, ``evaluated`` (whether this call ran or looked up an evaluation) and ``task``.
"""

from __future__ import annotations

from typing import Any

from scratch_gym.editor.page import EditorPage
from scratch_gym.tasks.evaluator import EvaluationResult, Evaluator
from scratch_gym.tasks.projects import load_project
from scratch_gym.tasks.schema import Task


class TaskEpisode:
    """PSR-based rewards for one task in one editor page (see the module docstring)."""

    def __init__(
        self,
        page: EditorPage,
        task: Task,
        every_step: bool = True,
        evaluator: Evaluator | None = None,
    ) -> None:
        self.page = page
        self.task = task
        self.every_step = every_step
        self.evaluator = evaluator or Evaluator(page, task)
        self.initial: EvaluationResult | None = None
        self.last: EvaluationResult | None = None

    def start(self, load: bool = True) -> dict[str, Any]:
        """Begin an episode: load the task's starting project into the editor (unless ``load`` is
        False, when the caller did) and evaluate it. Returns info with ``initial_psr``."""
        if load and self.task.start is not None:
            self.page.load_project(load_project(self.task.start))
            self.page.settle()
        self.initial = self.last = self.evaluator.evaluate()
        return self._info(evaluated=True)

    def step(self, final: bool = False) -> tuple[float, dict[str, Any]]:
        """Reward and info after an action; evaluates when per-step, or when ``final``."""
        if self.last is None:
            raise RuntimeError("TaskEpisode.start() must be called before step()")
        if not (self.every_step or final):
            return 0.0, self._info(evaluated=False)
        previous = self.last.psr
        self.last = self.evaluator.evaluate()
        return self.last.psr - previous, self._info(evaluated=True)

    @property
    def psr(self) -> float:
        return self.last.psr if self.last else 0.0

    @property
    def initial_psr(self) -> float:
        return self.initial.psr if self.initial else 0.0

    @property
    def success(self) -> bool:
        return bool(self.last and self.last.success)

    def _info(self, evaluated: bool) -> dict[str, Any]:
        assert self.last is not None
        info = self.last.to_info()
        info.update(initial_psr=self.initial_psr, evaluated=evaluated, task=self.task.id)
        return info
