"""ScratchEnv: the real Scratch 3 editor as a Gymnasium environment.

The environment composes an editor page (browser side), an action model (how agent actions become
editor input) and an observation model (what the agent sees). The ids registered in
``scratch_gym.envs.registration`` are presets of these parts.
"""

from __future__ import annotations

import importlib
import inspect
import time
from pathlib import Path
from typing import Any

import numpy as np

from scratch_gym.actions.base import ActionModel
from scratch_gym.actions.errors import ActionError
from scratch_gym.editor.browser import BrowserSession
from scratch_gym.editor.page import BridgeError, EditorPage, PageDeadError
from scratch_gym.editor.page_env import PageEnv, dead_page_error
from scratch_gym.envs.validation import TaskValidator
from scratch_gym.observations.base import EpisodeText, ObservationModel
from scratch_gym.observations.settings import OBSERVATION_NAMES, observation_setting
from scratch_gym.ocr.base import OcrEngine
from scratch_gym.program.projects import (
    check_project_json,
    check_sb3,
    empty_project,
    read_project_file,
)
from scratch_gym.tasks import TaskEpisode
from scratch_gym.tasks.projects import load_project as load_task_project
from scratch_gym.tasks.registry import TaskRegistry, UnknownTaskError, registry_for
from scratch_gym.tasks.schema import Task

DEFAULT_MAX_STEPS = 50


class TaskStartError(RuntimeError):
    """``reset`` could not start the task: its starting project did not read or load, or its
    tests could not evaluate it. The env stays usable: the next good ``reset`` starts an episode
    and ``step`` before it raises RuntimeError."""

    def __init__(self, task_id: str, cause: BaseException) -> None:
        self.task_id = task_id
        self.cause = cause
        super().__init__(f"task {task_id!r} could not start: {type(cause).__name__}: {cause}")


# Action and observation models by name: "module:Class". Each is built with the keyword arguments
# it accepts from the environment's configuration (see ``_build``).
ACTION_MODELS: dict[str, str] = {
    "primitive": "scratch_gym.actions.primitive:PrimitiveActionModel",
    "drag": "scratch_gym.actions.drag_box:DragBoxActionModel",
    "composite": "scratch_gym.actions.composite:CompositeActionModel",
}
OBSERVATION_MODELS: dict[str, str] = {
    "screen": "scratch_gym.observations.pixels:ScreenObservation",
    "pixels": "scratch_gym.observations.pixels:PixelObservation",
    "pseudocode": "scratch_gym.observations.pseudocode:PseudocodeObservation",
    "screen_elements": "scratch_gym.observations.elements:ScreenElementsObservation",
    "element_arrays": "scratch_gym.observations.elements:ElementArrayObservation",
}


def _build(
    table: dict[str, str], kind: str, name: str, config: dict[str, tuple[str, Any]] | None = None
) -> Any:
    """Instantiate the model ``name`` of ``table``.

    ``config`` maps an environment argument's name to (the model's parameter, value). Arguments
    left at ``None`` are not passed; a given argument the model does not take is a ``TypeError``
    naming it (``gym.make`` adds the id), never silently dropped.
    """
    if name not in table:
        raise ValueError(f"unknown {kind} model {name!r}; allowed: {', '.join(table)}")
    module_name, class_name = table[name].split(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    accepted = inspect.signature(cls).parameters
    kwargs: dict[str, Any] = {}
    for argument, (parameter, value) in (config or {}).items():
        if value is None:
            continue
        if parameter not in accepted:
            takes = [a for a, (p, _) in (config or {}).items() if p in accepted]
            raise TypeError(
                f"argument {argument}={value!r} does not apply to the {kind} model {name!r}; "
                f"it takes {', '.join(takes) if takes else 'none of the optional arguments'}"
            )
        kwargs[parameter] = value
    return cls(**kwargs)


def resolve_observation(name: str, given: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The observation model of ``name`` (a model, or a setting of
    :mod:`scratch_gym.observations.settings`) and ``given`` (argument: value) completed with the
    setting's defaults where left at None."""
    if name in OBSERVATION_MODELS and name not in OBSERVATION_NAMES:
        return name, given
    if name not in OBSERVATION_NAMES:
        allowed = ", ".join(dict.fromkeys([*OBSERVATION_MODELS, *OBSERVATION_NAMES]))
        raise ValueError(f"unknown observation model {name!r}; allowed: {allowed}")
    setting = observation_setting(name)
    filled = {k: setting.defaults.get(k) if v is None else v for k, v in given.items()}
    return setting.observation_model, filled


def _short(value: Any, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters (a project dict or bytes can be large); a
    path is shown whole up to 400 characters, so the user sees which file was meant."""
    if isinstance(value, str | Path):
        value, limit = str(value), max(limit, 400)
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class ScratchEnv(PageEnv):
    """The Scratch 3 editor, headless and offline, driven by an agent.

    ## Description

    One episode builds or edits a Scratch program in the real editor. The environment is composed
    of an editor page, an action model (``action``: how actions become editor input) and an
    observation model (``observation``: what the agent sees); each registered id is a preset of
    the two (``scratch_gym.envs.registration``).

    ## Action Space

    - ``action="primitive"`` (``ScratchWorld-Primitive-v0``): a ``Dict`` with ``action_type``
      (click, double_click, drag, type, key, hotkey, scroll, done, failed), points in viewport
      pixels, ``text``, ``keys`` and ``scroll`` (the primitive action table in docs/actions.md).
    - ``action="drag"`` (the RL ids): ``Box(4)`` in [-1, 1], a drag from (x0, y0) to (x1, y1)
      mapped onto the 1280x720 viewport.
    - ``action="composite"`` (``ScratchWorld-Composite-v0``): one JSON object ``{"api", "args"}``
      (select_sprite, add_block, connect_blocks, set_block_field, ..., done; the composite
      action table in docs/actions.md), as text or a dict.

    A malformed action changes nothing; its error is in ``last_action_error`` / ``info``, and the
    episode goes on.

    ## Observation Space

    - ``observation="screen_elements"``: ``Dict(screenshot=Box(720, 1280, 3, uint8),
      instruction, last_action_error, elements)``, the element list as text (DOM boxes, plus OCR
      with ``ocr=``).
    - ``observation="screen_elements_ocr"`` (or its preset name ``"paper"``): the same, the list
      fused with PaddleOCR text as ScratchWorld's primitive mode does it (``ocr="paddleocr"``,
      ``ocr_min_score=0.5``, ``fusion="paper"``; each can be overridden).
    - ``observation="screen"``: the same without ``elements``.

    ``screen``, ``screen_elements`` and ``screen_elements_ocr`` are the paper's observation
    ablation (``scratch_gym.observations.settings``; ``scratch-gym eval --observation``).
    - ``observation="pixels"``: ``Box(h, w, 3, uint8)``, the screenshot resized to ``obs_size``.
    - ``observation="element_arrays"``: up to ``max_elements`` elements as fixed arrays
      (``type``, ``box``, ``point``, ``opcode``, ``text``, ``mask``).
    - ``observation="pseudocode"``: text fields ``instruction``, ``target``, ``targets``,
      ``variables``, ``pseudocode`` (numbered blocks), ``fields``, ``last_action_result``,
      ``last_action_error``.

    The observation model waits for the editor to paint before a screen is read.

    ## Rewards

    With a task, the change of the partial success rate (passed tests / tests) of the task's unit
    tests, run on a copy of the project in virtual time: an episode's return is final PSR minus
    initial PSR. ``reward_mode="per_step"`` evaluates after every step that changed the project,
    ``"sparse"`` only when the episode ends. Without a task the reward is 0.

    ## Starting State

    ``reset`` loads the task's starting project (or ``project``, or the empty project: one sprite,
    "Sprite1", the cat) into the editor's VM without reloading the page, selects the first sprite,
    stops the VM and restores the fixed editor view (large stage, Code tab, Motion category,
    default workspace scroll and zoom). With a task, the starting project is evaluated
    (``info["initial_psr"]``).

    ## Episode End

    ``done`` or ``failed`` terminates; so does success with ``terminate_on_success=True``. The
    step budget truncates. ``info`` carries ``tests``, ``psr`` and ``success`` (with a task),
    ``executed_action`` and ``last_action_error``.

    ## Arguments

    - ``action``, ``observation``: the models above. An argument the chosen models do not take
      (``ocr`` on a pixels observation, ``obs_size`` on a text one) raises ``TypeError`` naming it.
    - ``obs_size``: (width, height) of ``pixels`` (default 128x72).
    - ``render_mode``: ``"rgb_array"`` returns the full 720x1280 screenshot.
    - ``max_steps``: step budget per episode. Default: the task's budget for the action mode
      (``primitive_step_budget`` in primitive mode if set, else ``step_budget``), or 50 without a
      task; an explicit value overrides the task's budget.
    - ``project``: a project (.sb3 or project.json path, or a project dict) to start every episode
      from, read once when the env is made; ``reset(options={"project": ...})`` overrides it for
      one episode.
    - ``browser``: the Chromium session to open the page in (default: one shared per process).
    - ``task``: a task id every episode uses (``reset(options={"task": id})`` overrides it).
    - ``tasks``: the tasks to sample one from at each reset when none is given, seeded by
      ``reset(seed=)``: ``"all"``, a category, a task id, or a list of task ids and categories
      (the one task vocabulary: docs/tasks-and-rewards.md, "Selecting tasks").
    - ``tasks_dir``: the user's own task folder(s) (``<category>/<task-id>/task.toml``), read
      besides the shipped suite and ``$SCRATCH_GYM_TASKS``; ids must not clash.
    - ``reward_mode``: ``"per_step"`` or ``"sparse"`` (see Rewards).
    - ``terminate_on_success``: end the episode as soon as every test passes.
    - ``ocr``: for element-list observations, an OCR engine (``"paddleocr"`` or ``"rapidocr"``,
      the ``ocr`` extra) fused with the DOM elements, or an engine made by
      ``scratch_gym.ocr.make_engine``; default: DOM elements only. With OCR,
      ``info["ocr_ms"]`` is the step's OCR time. The PaddleOCR engine runs its models on one
      thread, so that several environments on one machine do not fight for cores; one
      environment alone reads faster on all of them: ``ocr=make_engine("paddleocr",
      threads=0)``. Measured on 2 idle cores (``benchmarks/ocr.py --engines paddleocr
      --threads N``, 7 December 2026): a full 1280x720 frame in 417 ms with 2 threads against
      467-516 ms with 1, reusing the reads of lines seen in earlier frames (the palette's),
      700-870 ms with no such reads (recall 0.990 of the DOM's visible texts either way);
      after a drag the incremental pass reads only the changed regions, 155-195 ms.
    - ``ocr_min_score``: the confidence an OCR line needs (0.5, the paper's).
    - ``fusion``: how OCR lines join the DOM list: ``"explained"`` (default: a line a DOM element
      or its block's text accounts for is dropped, a blank icon button takes its text) or
      ``"paper"`` (ScratchWorld's: a line wholly inside a DOM element other than the workspace
      and its blocks is dropped).
    - ``max_elements``: for ``element_arrays``, the number of element slots (64).

    ``task``, ``tasks`` and ``project`` are checked when the env is made: an unknown id or
    category, a missing file or one that does not parse is a ``ValueError`` naming the argument,
    the closest id or category, and what is allowed. A ``reset`` that raises (an unknown task in
    its options, a project the editor refuses, a task that cannot start: ``TaskStartError``
    naming the task and the cause) leaves no episode (``env.episode`` is None) and the env
    usable: the next good ``reset`` starts an episode as usual, ``step`` before it raises
    ``RuntimeError``, and ``close()`` is idempotent.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 4}

    def __init__(
        self,
        action: str = "primitive",
        observation: str = "screen",
        obs_size: tuple[int, int] | None = None,
        render_mode: str | None = None,
        max_steps: int | None = None,
        project: str | Path | dict | None = None,
        settle_timeout_ms: int = 3000,
        browser: BrowserSession | None = None,
        task: str | None = None,
        tasks: str | list[str] | None = None,
        tasks_dir: str | Path | list[str | Path] | None = None,
        reward_mode: str = "per_step",
        terminate_on_success: bool = False,
        ocr: str | OcrEngine | None = None,
        max_elements: int | None = None,
        ocr_min_score: float | None = None,
        fusion: str | None = None,
    ) -> None:
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        if max_steps is not None and max_steps < 1:
            raise ValueError(f"max_steps must be >= 1, got {max_steps}")
        if reward_mode not in ("per_step", "sparse"):
            raise ValueError(f"reward_mode must be 'per_step' or 'sparse', got {reward_mode!r}")
        self.render_mode = render_mode
        self.max_steps = int(max_steps) if max_steps is not None else None
        self.settle_timeout_ms = int(settle_timeout_ms)
        self.actions: ActionModel = _build(ACTION_MODELS, "action", action)
        self.action_mode = action
        observation_model, given = resolve_observation(
            observation, {"ocr": ocr, "ocr_min_score": ocr_min_score, "fusion": fusion}
        )
        self.observations: ObservationModel = _build(
            OBSERVATION_MODELS,
            "observation",
            observation_model,
            {
                "obs_size": ("size", None if obs_size is None else tuple(obs_size)),
                "ocr": ("ocr", given["ocr"]),
                "ocr_min_score": ("min_score", given["ocr_min_score"]),
                "fusion": ("fusion", given["fusion"]),
                "max_elements": ("max_elements", max_elements),
            },
        )
        self.actions.use_elements(self.observations.shown_elements)
        self.action_space = self.actions.space
        self.observation_space = self.observations.space
        # A step waits for what the observation shows (a painted frame for pixels) and for what
        # the action needs the editor to finish (e.g. a drag's animations).
        self._settle_frames = max(self.observations.paint_frames, self.actions.settle_frames)
        # the user's folders: a missing folder or a clashing id fails here, at make
        self._registry = registry_for(tasks_dir) if tasks_dir is not None else None
        if self._registry is not None:
            self._registry.ids()
        # task=, tasks= and project= are checked here too, so a typo fails at make, not at reset
        self.default_task = task
        self.task_selection = tasks
        self._selected_ids = self._check_task_arguments(task, tasks)
        self.default_project = self._check_project_argument(project)
        self.reward_mode = reward_mode
        self.terminate_on_success = terminate_on_success
        self.episode: TaskEpisode | None = None
        self.validator: TaskValidator | None = None
        self._episode_max_steps = self.max_steps or DEFAULT_MAX_STEPS
        self._browser = browser
        self.text = EpisodeText()
        self._page: EditorPage | None = None
        self._steps = 0
        self._in_episode = False  # True from a good reset() on

    # -- Gymnasium API ------------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        # a reset that raises leaves no episode behind: step() then refuses (check_reset)
        self.episode, self.validator, self._in_episode = None, None, False
        options = dict(options or {})
        task = self._resolve_task(options.pop("task", self.default_task))
        project_option = options.pop("project", None)
        instruction = options.pop("instruction", None)
        if options:
            raise ValueError(
                f"unknown reset options {sorted(options)}; allowed: task, project, instruction"
            )
        project = None if project_option is None else self._resolve_project(project_option)
        t0 = time.perf_counter()
        self.page.defer_flyout(self.actions.defers_flyout)
        info: dict[str, Any] = {}
        if task is None:
            self.start_episode(lambda page: self._load(page, self._starting_project(project)))
        else:
            info.update(self._start_task(task, project))
        page = self.page
        self._steps = 0
        self._episode_max_steps = self.step_budget(task)
        if instruction is None:
            instruction = task.instruction if task is not None else ""
        self.text = EpisodeText(instruction=str(instruction))
        obs = self.observations.observe(page, self.text)
        info.update(self._info(page))
        info["reset_time_ms"] = (time.perf_counter() - t0) * 1000
        self._in_episode = True
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self.check_reset(begun=self._page is not None and self._in_episode)
        t0 = time.perf_counter()
        page = self._page
        self._steps += 1
        self.text.last_action_error = ""
        self.text.last_action_result = ""
        action_info: dict[str, Any] = {"executed_action": None, "clipped": []}
        terminated = False
        try:
            parsed = self.actions.parse(action)
        except ActionError as exc:
            self.text.last_action_error = str(exc)
        else:
            if self.actions.ends_episode(parsed):
                terminated = True
                executed = {"action_type": parsed.type, "type": parsed.type}  # type: the alias
                action_info = {"executed_action": executed, "clipped": []}
            else:
                try:
                    action_info = self._perform(page, parsed)
                except (
                    ActionError
                ) as exc:  # found invalid only in the editor (e.g. a refused connection)
                    self.text.last_action_error = str(exc)
                    action_info = {"executed_action": None, "clipped": []}
                except PageDeadError as exc:
                    self.text.last_action_error = dead_page_error(exc)
                    return self.dead_page_step(exc, t0, self.observations.blank(self.text))
                self.text.last_action_result = str(action_info.get("action_result", ""))
        truncated = not terminated and self._steps >= self._episode_max_steps
        reward = 0.0
        info: dict[str, Any] = {}
        acted = time.perf_counter()
        if self.validator is not None:
            reward, won, task_info = self.validator.step(
                page, action, final=terminated or truncated
            )
            info.update(task_info)
            if self.terminate_on_success and won:
                terminated, truncated = True, False
        evaluated = time.perf_counter()
        obs = self.observations.observe(page, self.text)
        observed = time.perf_counter()
        info.update(self._info(page))
        info.update(action_info)
        done = time.perf_counter()
        info["step_time_ms"] = (done - t0) * 1000
        info["step_phases_ms"] = step_phases(
            t0, acted, evaluated, observed, done, float(action_info.get("settle_ms", 0.0))
        )
        return obs, float(reward), terminated, truncated, info

    def render(self) -> np.ndarray | None:
        # Text-observation steps do not wait for paint: the frame must settle first.
        if self.render_mode == "rgb_array" and self._page is not None:
            if self._settle_frames == 0:
                self._page.settle(self.settle_timeout_ms)
        return super().render()

    def close(self) -> None:
        """Close this environment's page (and the browser with the last one). Idempotent."""
        super().close()
        self._in_episode = False

    def _starting_project(
        self, project: dict | bytes | None, task: Task | None = None
    ) -> dict | bytes:
        """The episode's starting project: ``project`` (reset's option), else the task's start,
        else ``project=`` (or the empty project)."""
        if project is not None:
            return project
        if task is not None and task.start is not None:
            return load_task_project(task.start)
        return self._resolve_project(self.default_project)

    def _start_task(self, task: Task, project: dict | bytes | None) -> dict[str, Any]:
        """Load the task's starting project and evaluate it (``info`` with ``initial_psr``).
        Anything of the task's that fails (its project does not read or load, its tests cannot
        start) is one :class:`TaskStartError` naming the task and the cause; a page that died
        twice stays a PageDeadError (the runner retries those)."""
        try:
            start = self._starting_project(project, task)
            self.start_episode(lambda page: self._load(page, start))
            validator = TaskValidator(task, every_step=self.reward_mode == "per_step")
            info = validator.start(self.page)
        except PageDeadError:
            raise
        except Exception as exc:
            raise TaskStartError(task.id, exc) from exc
        self.validator, self.episode = validator, validator.episode
        return info

    def step_budget(self, task: Task | None = None) -> int:
        """The step budget an episode of ``task`` gets in this env: ``max_steps`` if given, else
        the task's for this action mode (``Task.budget_for``), else the default. Opens no page."""
        if self.max_steps is not None:
            return self.max_steps
        return task.budget_for(self.action_mode) if task is not None else DEFAULT_MAX_STEPS

    # -- parts -------------------------------------------------------------------------------------
    @property
    def registry(self) -> TaskRegistry:
        """The tasks this env knows: the shipped suite, ``$SCRATCH_GYM_TASKS`` and ``tasks_dir``."""
        return self._registry if self._registry is not None else registry_for(None)

    def _check_task_arguments(
        self, task: str | Task | None, tasks: str | list[str] | None
    ) -> list[str] | None:
        """Check ``task=`` and ``tasks=`` against the registry (ValueError naming the argument,
        the closest id or category and what is allowed); returns the ids ``tasks=`` selects."""
        if task is not None and not isinstance(task, Task) and task not in self.registry.ids():
            unknown = UnknownTaskError(str(task), self.registry.ids())
            raise ValueError(
                f"task={task!r}: {unknown}; allowed: a task id (scratch-gym tasks list)"
            )
        if tasks is None:
            return None
        return self.registry.select(tasks, argument="tasks")

    @staticmethod
    def _check_project_argument(project: str | Path | dict | bytes | None) -> dict | bytes | None:
        """``project=`` read and checked once (a file that exists and parses as an .sb3 or a
        project.json, a project dict, .sb3 bytes); ValueError saying what is wrong otherwise."""
        if project is None:
            return None
        allowed = "allowed: an .sb3 file, a project.json file, a project dict or .sb3 bytes"
        try:
            if isinstance(project, dict):
                check_project_json(project, "the project dict")
                return project
            if isinstance(project, bytes):
                check_sb3(project, "the project bytes")
                return project
            return ScratchEnv._resolve_project(project)
        except (OSError, ValueError, TypeError) as exc:
            raise ValueError(f"project={_short(project)}: {exc} ({allowed})") from None

    def _resolve_task(self, task: str | Task | None) -> Task | None:
        if isinstance(task, Task):
            return task
        if task is not None:
            return self.registry.load(task)
        if self._selected_ids is None:
            return None
        ids = self._selected_ids
        return self.registry.load(ids[int(self.np_random.integers(len(ids)))])

    @staticmethod
    def _resolve_project(project: str | Path | dict | bytes | None) -> dict | bytes:
        if project is None:
            return empty_project()
        if isinstance(project, (dict, bytes)):
            return project
        if isinstance(project, (str, Path)):
            return read_project_file(project)
        raise TypeError(
            f"project must be a path, a project dict or .sb3 bytes, got {type(project).__name__}"
        )

    def _load(self, page: EditorPage, project: dict | bytes) -> None:
        page.start_vm()
        try:
            page.load_project(project)
        except BridgeError as exc:
            # The VM keeps its previous project when loading fails; restore a clean state.
            page.load_project(empty_project())
            page.settle(self.settle_timeout_ms)
            raise ValueError(str(exc)) from exc
        page.settle(self.settle_timeout_ms)
        page.stage_size("large")  # an agent may have switched it (the stage-size buttons)
        page.bridge.view_reset()
        page.dismiss_menus()
        page.settle(self.settle_timeout_ms, stop_vm=True)

    def _perform(self, page: EditorPage, parsed: Any) -> dict[str, Any]:
        if self.actions.runs_scripts(parsed):
            page.start_vm()
        try:
            info = self.actions.execute(page, parsed)
        except ActionError:
            # refused in the editor: nothing changed, but the VM's frame loop must stop again
            page.settle(self.settle_timeout_ms, self._settle_frames, stop_vm=True, from_call=True)
            raise
        settle = page.settle(
            self.settle_timeout_ms, self._settle_frames, stop_vm=True, from_call=True
        )
        info["settled"] = settle["settled"]
        info["settle_ms"] = settle["ms"]
        info["vm_running"] = settle["vm_running"]
        return info

    def _info(self, page: EditorPage) -> dict[str, Any]:
        summary = page.summary()
        extra = {}
        shown = self.observations.shown_elements()
        if shown is not None:
            extra["elements"] = [e.to_dict() for e in shown]
        ocr_ms = getattr(self.observations, "ocr_ms", None)
        if ocr_ms is not None:
            extra["ocr_ms"] = ocr_ms
        return extra | {
            "last_action_error": self.text.last_action_error,
            "blocks": summary["blocks"],
            "scripts": summary["scripts"],
            "editing_target": summary["editing_target"],
            "steps": self._steps,
            "blocked_requests": len(page.requests.blocked),
            "page_refreshes": page.refreshes,
        }


def step_phases(
    start: float, acted: float, evaluated: float, observed: float, done: float, settle_ms: float
) -> dict[str, float]:
    """Where a step's time went, in ms (``info["step_phases_ms"]``): ``act`` (the pointer or
    keyboard events and the editor's own waits), ``settle`` (waiting for the editor to come to
    rest after them, part of the action's time, shown apart), ``evaluate`` (the task's tests),
    ``observe`` (screenshot, element list, OCR: what the observation model reads) and ``info``
    (the workspace summary). ``act`` + ``settle`` + ``evaluate`` + ``observe`` + ``info`` is
    ``step_time_ms``."""
    act = (acted - start) * 1000
    return {
        "act": act - min(settle_ms, act),
        "settle": min(settle_ms, act),
        "evaluate": (evaluated - acted) * 1000,
        "observe": (observed - evaluated) * 1000,
        "info": (done - observed) * 1000,
    }
