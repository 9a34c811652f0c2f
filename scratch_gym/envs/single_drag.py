"""SingleDragEnv: one-drag episodes of the Single-Step Drag benchmark in the real editor (see
:class:`SingleDragEnv`)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from scratch_gym.actions.errors import ActionError
from scratch_gym.editor.browser import BrowserSession
from scratch_gym.editor.page import EditorPage, PageDeadError
from scratch_gym.editor.page_env import PageEnv
from scratch_gym.envs.validation import DragValidator
from scratch_gym.single_drag import editor_drag
from scratch_gym.single_drag.env_parts import DragEpisodeText, OneDragAction, observation_model
from scratch_gym.single_drag.feasible.geometric import geometric_regions
from scratch_gym.single_drag.generation.generator import TaskGenerator
from scratch_gym.single_drag.tasks.instructions import SETTINGS, instruction_for
from scratch_gym.single_drag.tasks.task import DragTask, load_tasks
from scratch_gym.task_selection import select_from

GENERATED = "generated"  # tasks=: generate tasks without end instead of drawing stored ones


class SingleDragEnv(PageEnv):
    """One drag per episode; reward 1 when the intended connection forms.

    ## Description

    The Single-Step Drag benchmark in the real editor, put together like every id: an editor
    page, an action model (the one drag) and an observation model
    (:mod:`scratch_gym.single_drag.env_parts`). Registered as
    ``ScratchWorld-SingleDrag-v0`` (LLM agents), ``ScratchWorld-SingleDragPixels-v0`` and
    ``ScratchWorld-SingleDragElements-v0`` (RL: the same spaces as the fast path's
    ``ScratchWorld-SingleDragFast-v0``, so a policy trained there runs here unchanged).

    The drag policy shipped with the package (the ``rl`` extra) acts in the elements id::

        import gymnasium as gym
        import scratch_gym
        from scratch_gym.single_drag.training.policy import DragPolicy, shipped_checkpoint

        policy = DragPolicy.load(shipped_checkpoint())  # or a policy.pt you trained
        env = gym.make("ScratchWorld-SingleDragElements-v0")
        obs, info = env.reset(options={"task": "dc-01"})
        obs, reward, terminated, truncated, info = env.step(policy(obs)[0])  # grid action
        env.close()

    ``policy(obs)`` rounds the drag to the grid's 10 px cells; ``policy.pixel_points(obs)`` gives
    it unrounded, (start, end) in viewport pixels, for an env made with ``action="points"``
    (``env.step({"start": start[0], "end": end[0]})``). ``scratch-gym eval --suite single-drag
    --agent drag-policy`` runs it on a whole split and answers the unrounded points (rounding to
    the grid cost the shipped checkpoint about one point of Pass@1 on the validation pool).

    ## Action Space

    - ``action="points"``: ``Dict(start=Box(2), end=Box(2))`` in viewport pixels (origin
      top-left; points outside are clipped and flagged).
    - ``action="box"``: ``Box(4)`` in [-1, 1] (x0, y0, x1, y1) mapped onto the 1280x720 viewport.
    - ``action="grid"``: ``MultiDiscrete([128, 72, 128, 72])``, grab and drop cells of a 10 px
      grid (``rl_spaces``).

    ## Observation Space

    - ``observation="screen"`` (LLM agents): ``Dict(screenshot=Box(720, 1280, 3, uint8),
      instruction=Text)``.
    - ``observation="pixels"`` (RL): ``Dict(pixels=Box(h, w, 3, uint8), instruction=Box(int64))``,
      the screenshot resized to ``obs_size`` and the instruction as token ids.
    - ``observation="elements"`` (RL): the instruction's token ids and the element list as arrays
      (``rl_spaces``).

    The RL observations hold nothing privileged (no regions, block ids or target coordinates) and
    equal the fast path's for the same task.

    ## Rewards

    1 when the intended connection formed (checked in the VM), else 0. With
    ``shaped_reward=True`` a failed drag gets minus the mean of the grab point's distance to the
    feasible start region and the drop point's distance to the feasible end region, each capped
    at and divided by the viewport diagonal (so in [-1, 0]).

    ## Starting State

    A task (stored, or ``tasks="generated"``), its project loaded and its editor view set
    (palette category and scroll, workspace scroll and zoom); ``reset(options={"task":
    id_or_Task, "setting": ...})`` picks it. ``setting="gt_start"`` adds the start point to the
    instruction and circles it on the screenshot; ``setting="knowledge"`` appends the grab/drop
    rules.

    ## Episode End

    Every step terminates (one drag per episode). ``info``: ``success``, ``start_correct`` (the
    intended block was dragged), ``end_correct`` (the drop point lies in the feasible end region,
    corrected for the grab point), ``start_error_px``, ``end_error_px``, ``dragged``,
    ``task_id``, ``executed_action``, ``clipped``, ``step_time_ms``.

    ## Arguments

    - ``action``: ``"points"``, ``"box"`` or ``"grid"``; ``observation``: ``"screen"``,
      ``"pixels"`` or ``"elements"``.
    - ``obs_size``: (width, height) of ``pixels`` only (default 128x72).
    - ``tasks``: the stored tasks to draw from (the one task vocabulary:
      docs/tasks-and-rewards.md, "Selecting tasks"; the categories are the tasks' kinds,
      ``"stored"`` means ``"all"``), or ``"generated"``: tasks generated without end. Default:
      every stored task.
    - ``setting``: ``"baseline"``, ``"gt_start"`` or ``"knowledge"``; ``shaped_reward``.
    - ``render_mode``: ``"rgb_array"``; ``browser``: a BrowserSession to share.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 4}

    def __init__(
        self,
        action: str = "points",
        observation: str = "screen",
        obs_size: tuple[int, int] | None = None,
        tasks: list[str] | str | None = None,
        setting: str = "baseline",
        shaped_reward: bool = False,
        render_mode: str | None = None,
        browser: BrowserSession | None = None,
    ) -> None:
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        self._check_setting(setting)
        self.actions = OneDragAction(action)
        self.observations = observation_model(observation, obs_size)
        self.action_mode, self.observation_mode = action, observation
        self.setting = setting
        self.shaped_reward = bool(shaped_reward)
        self.render_mode = render_mode
        self.action_space = self.actions.space
        self.observation_space = self.observations.space
        self.text = DragEpisodeText()
        self.generated = tasks == GENERATED
        self.tasks: list[DragTask] = [] if self.generated else select_drag_tasks(tasks)
        self._generator: TaskGenerator | None = None
        self._browser = browser
        self._page: EditorPage | None = None
        self.task: DragTask | None = None
        self.validator: DragValidator | None = None
        self._project: dict[str, Any] | None = None
        self._done = True

    # -- Gymnasium API ------------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        options = dict(options or {})
        setting = options.pop("setting", self.setting)
        self._check_setting(setting)
        choice = options.pop("task", None)
        if options:
            raise ValueError(f"unknown reset options {sorted(options)}; allowed: task, setting")
        t0 = time.perf_counter()

        def set_up(page: EditorPage) -> tuple[DragTask, dict[str, Any], Any]:
            task = self._pick(choice)
            project = task.build_project()
            view = editor_drag.prepare(page, task, project)
            if task.regions is None:
                task.regions = geometric_regions(page, task)
            return task, project, view

        task, project, view = self.start_episode(set_up)
        self.task, self._project = task, project
        self._done = False
        assert task.regions is not None
        self.text = DragEpisodeText(
            instruction=instruction_for(task, setting),
            mark=task.regions.anchor if setting == "gt_start" else None,
        )
        obs = self.observations.observe(self.page, self.text)
        info = {"task_id": task.id, "kind": task.kind, "setting": setting, "view": view}
        self.validator = DragValidator(task, self.shaped_reward)
        info.update(self.validator.start(self.page))
        info["reset_time_ms"] = (time.perf_counter() - t0) * 1000
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self.task is None or self._done:
            raise RuntimeError("call reset() before step(): every episode is one drag")
        t0 = time.perf_counter()
        task = self.task
        assert task.regions is not None
        self._done = True
        try:
            parsed = self.actions.parse(action)
        except ActionError as exc:
            info = {"task_id": task.id, "success": False, "start_correct": False,
                    "end_correct": False, "last_action_error": str(exc),
                    "step_time_ms": (time.perf_counter() - t0) * 1000}  # fmt: skip
            return self.observations.observe(self.page, self.text), 0.0, True, False, info
        assert parsed.start is not None and parsed.end is not None
        try:
            page = self.episode_page
            action_info = self.actions.execute(page, parsed)
            assert self.validator is not None
            reward, _, info = self.validator.step(page, parsed)
        except PageDeadError as exc:
            return self.dead_page_step(exc, t0, self.observations.blank(self.text))
        info.update(action_info)
        info["last_action_error"] = ""
        obs = self.observations.observe(page, self.text)
        info["step_time_ms"] = (time.perf_counter() - t0) * 1000
        return obs, reward, True, False, info

    def observe_as(self, observation: str) -> Any:
        """The current screen as another observation model would show it (``"screen"``,
        ``"pixels"`` or ``"elements"``): what an agent built for another space sees, no more
        (nothing privileged). For agents run by a suite that makes this env with one space."""
        if self.task is None:
            raise RuntimeError("call reset() before observe_as()")
        return observation_model(observation, None).observe(self.page, self.text)

    def hidden_facts(self) -> dict[str, Any]:
        """For privileged agents: the episode's ``task`` and its feasible ``regions``."""
        if self.task is None:
            return {}
        return {"task": self.task, "regions": self.task.regions}

    # -- parts -------------------------------------------------------------------------------------

    @staticmethod
    def _check_setting(setting: str) -> None:
        if setting not in SETTINGS:
            raise ValueError(f"setting must be one of {SETTINGS}, got {setting!r}")

    def _pick(self, choice: str | DragTask | None) -> DragTask:
        if isinstance(choice, DragTask):
            return choice
        if isinstance(choice, str):
            found = [t for t in self.tasks if t.id == choice] or load_tasks([choice])
            return found[0]
        if self.generated:
            if self._generator is None:
                self._generator = TaskGenerator(int(self.np_random.integers(2**31)))
            return self._generator.sample(self.page)
        return self.tasks[int(self.np_random.integers(len(self.tasks)))]


def select_drag_tasks(tasks: str | Sequence[str] | None) -> list[DragTask]:
    """The stored tasks ``tasks`` selects (sorted by id): the one task vocabulary, categories
    being the tasks' kinds; a ValueError (TaskSelectionError) names an unknown entry."""
    return select_from(
        tasks, load_tasks(), argument="tasks", aliases=("stored",), words=(GENERATED,)
    )
