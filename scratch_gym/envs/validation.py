"""Task validators: how an env's episode is scored, in the spirit of BrowserGym's setup/validate.

An env is its page (:class:`~scratch_gym.editor.page_env.PageEnv`), its observation and action
models, and a :class:`Validator`: made for one episode, ``start(page)`` when the episode's page is
ready (its info goes into reset's info), then ``step(page, action)`` after each action has been
carried out, giving ``(reward, terminated, info)``. The env decides truncation, malformed input
and a dead page; the validator only scores. One implementation per kind of scoring:

- :class:`TaskValidator`: a ScratchWorld task's unit tests, the PSR reward of
  :class:`~scratch_gym.tasks.rewards.TaskEpisode` (``ScratchEnv``);
- :class:`DragValidator`: did the intended connection form (``SingleDragEnv``);
- :class:`AnswerValidator`: is the text answer right (``PerceptionEnv``);
- :class:`ProgramValidator`: the program's unit tests or SAC score (``ProgramEnv``).
"""

from __future__ import annotations

import math
from typing import Any, Protocol

from scratch_gym.editor.page import VIEWPORT, EditorPage
from scratch_gym.nl2scratch.episodes import ProgramEpisode, score_program
from scratch_gym.nl2scratch.protocols import ScoringProtocol
from scratch_gym.perception.questions import is_correct
from scratch_gym.program import render_scripts
from scratch_gym.scratchworld.perception import PerceptionItem
from scratch_gym.single_drag import editor_drag
from scratch_gym.single_drag.env_parts import OneDragAction
from scratch_gym.single_drag.tasks.task import DragTask
from scratch_gym.tasks import Evaluator
from scratch_gym.tasks.rewards import TaskEpisode
from scratch_gym.tasks.schema import Task

# The screen's diagonal: the scale of the shaped drag reward.
DIAGONAL = math.hypot(*VIEWPORT)


class Validator(Protocol):
    """Scores one episode. ``final`` tells ``step`` that the episode ends with this step
    (truncation or a stop action), for validators that score only at the end."""

    def start(self, page: EditorPage) -> dict[str, Any]: ...

    def step(
        self, page: EditorPage, action: Any, *, final: bool = False
    ) -> tuple[float, bool, dict[str, Any]]: ...


class TaskValidator:
    """A task's unit tests: the reward is the change of PSR (the pass rate), evaluated after
    every step (``every_step``) or only at the end; ``terminated`` is the task's success."""

    def __init__(self, task: Task, every_step: bool = True) -> None:
        self.task = task
        self.every_step = every_step
        self.episode: TaskEpisode | None = None

    def start(self, page: EditorPage) -> dict[str, Any]:
        """Evaluate the starting project (already loaded): info with ``initial_psr``."""
        self.episode = TaskEpisode(page, self.task, every_step=self.every_step)
        return self.episode.start(load=False)

    def step(
        self, page: EditorPage, action: Any, *, final: bool = False
    ) -> tuple[float, bool, dict[str, Any]]:
        if self.episode is None:
            raise RuntimeError("TaskValidator.start() must be called before step()")
        reward, info = self.episode.step(final=final)
        return reward, self.episode.success, info


class DragValidator:
    """One drag's goal: reward 1 if the intended connection formed, else 0 (or, with
    ``shaped_reward``, minus the mean distance of grab and drop to their feasible regions as a
    fraction of the screen's diagonal). Every episode is one drag, so it always terminates."""

    def __init__(self, task: DragTask, shaped_reward: bool = False) -> None:
        self.task = task
        self.shaped_reward = shaped_reward

    def start(self, page: EditorPage) -> dict[str, Any]:
        return {}

    def step(
        self, page: EditorPage, action: OneDragAction, *, final: bool = True
    ) -> tuple[float, bool, dict[str, Any]]:
        task = self.task
        assert task.regions is not None
        assert action.start is not None and action.end is not None
        result = editor_drag.outcome(page, task)
        start_err = task.regions.start.distance(action.start)
        end_err = task.regions.end_distance(action.start, action.end)
        reward = 1.0 if result.success else 0.0
        if self.shaped_reward and not result.success:
            reward = -(min(start_err, DIAGONAL) + min(end_err, DIAGONAL)) / (2 * DIAGONAL)
        info = {
            "task_id": task.id,
            "success": result.success,
            "start_correct": result.start_correct,
            "end_correct": result.success or end_err == 0.0,
            "start_error_px": start_err,
            "end_error_px": 0.0 if result.success else end_err,
            "dragged": result.dragged,
        }
        return reward, True, info


class AnswerValidator:
    """A perception question's answer: reward 1 if right (a ScratchWorld item by its own answer
    rules, a generated question by :func:`~scratch_gym.perception.questions.is_correct`)."""

    def __init__(self, question: dict[str, Any], item: PerceptionItem | None = None) -> None:
        self.question = question
        self.item = item

    def start(self, page: EditorPage) -> dict[str, Any]:
        return {}

    def step(
        self, page: EditorPage, action: str, *, final: bool = True
    ) -> tuple[float, bool, dict[str, Any]]:
        q = self.question
        correct = self.item.is_correct(action) if self.item is not None else is_correct(q, action)
        info = {"answer": q["answer"], "given": action, "correct": correct,
                "last_action_error": ""}  # fmt: skip
        return float(correct), True, info


class ProgramValidator:
    """A program loaded into the editor: its scores (:func:`score_program`) and, for a task with
    unit tests, their PSR as the reward; else SAC against the reference, else against the
    description."""

    def __init__(self, episode: ProgramEpisode, protocol: ScoringProtocol, dialect: str) -> None:
        self.episode = episode
        self.protocol = protocol
        self.dialect = dialect

    def start(self, page: EditorPage) -> dict[str, Any]:
        return {}

    def scores(self, program: str) -> dict[str, Any]:
        """The program's text scores, without the editor."""
        episode = self.episode
        return score_program(program, episode.description, episode.reference, self.protocol)

    def step(
        self, page: EditorPage, action: str, *, final: bool = True
    ) -> tuple[float, bool, dict[str, Any]]:
        out = self.scores(action)
        vm_blocks = page.bridge.vm_blocks(self.episode.target)
        out["program_in_editor"] = render_scripts(vm_blocks, dialect=self.dialect)
        if self.episode.task is not None and self.episode.task.tests:
            result = Evaluator(page, self.episode.task).evaluate()
            out.update(result.to_info())
            out["score"] = result.psr
        elif "sac_ref" in out:
            out["score"] = out["sac_ref"]
        else:
            out["score"] = out["sac_nl"]
        return float(out["score"]), True, out
