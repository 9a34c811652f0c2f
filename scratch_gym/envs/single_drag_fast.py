"""The fast drag path: single-drag episodes stepped in numpy over a pool of captured tasks.

``SingleDragVectorEnv`` is a native ``gymnasium.vector.VectorEnv``: a batch of one-drag
episodes is one numpy call (``drag_model.simulate``), with no per-environment Python loop; it is
what ``gym.make_vec("ScratchWorld-SingleDragFast-v0", num_envs=N, vectorization_mode=
"vector_entry_point")`` builds. :class:`SingleDragFastEnv` is one such environment.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from scratch_gym.single_drag.drag_model import simulate
from scratch_gym.single_drag.fast.pool import Pool, load_pool
from scratch_gym.single_drag.fast.snapshot import SETTINGS
from scratch_gym.single_drag.rl_spaces import (
    action_space,
    box_points,
    elements_space,
    grid_points,
    pixels_space,
)


class _FastCore:
    """What both fast envs share: the pool, the spaces and batched observation/outcome."""

    def __init__(
        self, pool: Pool | str | Path, observation: str, action: str, setting: str
    ) -> None:
        if observation not in ("pixels", "elements"):
            raise ValueError(f"observation must be 'pixels' or 'elements', got {observation!r}")
        if setting not in SETTINGS:
            raise ValueError(f"setting must be one of {SETTINGS}, got {setting!r}")
        self.pool = pool if isinstance(pool, Pool) else load_pool(pool)
        self.observation, self.action, self.setting = observation, action, setting
        self.single_action_space = action_space(action)
        self.single_observation_space = (
            pixels_space(self.pool.obs_size) if observation == "pixels" else elements_space()
        )

    def observe(self, tasks: np.ndarray) -> dict[str, np.ndarray]:
        pool = self.pool
        out = {"instruction": pool.instructions[self.setting][tasks]}
        if self.observation == "pixels":
            out["pixels"] = pool.pixels[self.setting][tasks]
        else:
            out.update({k: v[tasks] for k, v in pool.elements.items()})
        return out

    def points(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.action == "grid":
            return grid_points(actions)
        return box_points(actions)

    def outcome(self, tasks: np.ndarray, actions: np.ndarray) -> dict[str, np.ndarray]:
        start, end = self.points(actions)
        out = simulate(self.pool.tables, tasks, start, end)
        return {
            "success": out.success,
            "start_correct": out.start_correct,
            "task": tasks,
            "task_id": self.task_ids(tasks),
        }

    def task_ids(self, tasks: np.ndarray) -> np.ndarray:
        """The pooled tasks' ids (an array of str) for pool indices ``tasks``."""
        return np.asarray(self.pool.ids, dtype=object)[tasks]


class SingleDragVectorEnv(VectorEnv):
    """``num_envs`` one-drag episodes stepped together in numpy (see module docs)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 1024,
        pool: Pool | str | Path | None = None,
        observation: str = "pixels",
        action: str = "grid",
        setting: str = "baseline",
    ) -> None:
        if pool is None:
            raise TypeError("pool= is required: a pool directory or a loaded Pool")
        if int(num_envs) < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        self.core = _FastCore(pool, observation, action, setting)
        self.num_envs = int(num_envs)
        self.single_observation_space = self.core.single_observation_space
        self.single_action_space = self.core.single_action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.tasks = np.zeros(self.num_envs, np.int64)

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        if isinstance(seed, list):
            seed = seed[0]
        super().reset(seed=seed)
        self.tasks = self._draw(self.num_envs)
        return self.core.observe(self.tasks), {
            "task": self.tasks.copy(),
            "task_id": self.core.task_ids(self.tasks),
        }

    def step(
        self, actions: np.ndarray
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        actions = np.asarray(actions)
        if actions.shape[0] != self.num_envs:
            raise ValueError(f"expected {self.num_envs} actions, got shape {actions.shape}")
        info = self.core.outcome(self.tasks, actions)
        reward = info["success"].astype(np.float32)
        self.tasks = self._draw(self.num_envs)
        terminated = np.ones(self.num_envs, bool)
        truncated = np.zeros(self.num_envs, bool)
        return self.core.observe(self.tasks), reward, terminated, truncated, info

    def _draw(self, n: int) -> np.ndarray:
        return self.np_random.integers(len(self.core.pool), size=n)


class SingleDragFastEnv(gym.Env):
    """One fast single-drag episode at a time (``ScratchWorld-SingleDragFast-v0``).

    ## Description

    Single-drag episodes over a pool of tasks captured from the real editor, stepped by the
    calibrated drag model in numpy instead of the browser: for training drag policies fast.

    ## Action Space

    Identical to the real editor's RL ids (``rl_spaces``): ``action="grid"``
    (``MultiDiscrete([128, 72, 128, 72])``, 10 px cells) or ``"box"`` (``Box(4)`` in [-1, 1]).

    ## Observation Space

    Identical to the real editor's RL ids: ``observation="pixels"``
    (``ScratchWorld-SingleDragPixels-v0``) or ``"elements"``
    (``ScratchWorld-SingleDragElements-v0``). A policy trained here runs unchanged in the real
    editor.

    ## Rewards

    1 when the intended connection forms, else 0.

    ## Starting State

    A task drawn uniformly from the pool; ``reset(options={"task": index})`` picks one.

    ## Episode End

    Every step terminates. The vector env resets finished episodes in the same step
    (``autoreset_mode`` SAME_STEP): the returned observation is the next task's. ``info``:
    ``success``, ``start_correct``, ``task`` (pool index); the vector env gives them as arrays.

    ## Arguments

    - ``pool``: a directory from ``scratch-gym single-drag pool build``, or a loaded ``Pool``
      (required).
    - ``observation``, ``action``: as above; ``setting``: ``"baseline"``, ``"gt_start"`` or
      ``"knowledge"``.
    - ``render_mode``: ``"rgb_array"``.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 4}

    def __init__(
        self,
        pool: Pool | str | Path | None = None,
        observation: str = "pixels",
        action: str = "grid",
        setting: str = "baseline",
        render_mode: str | None = None,
    ) -> None:
        if pool is None:
            raise TypeError("pool= is required: a pool directory or a loaded Pool")
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        self.core = _FastCore(pool, observation, action, setting)
        self.observation_space = self.core.single_observation_space
        self.action_space = self.core.single_action_space
        self.render_mode = render_mode
        self.task = 0
        self._done = True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        options = dict(options or {})
        choice = options.pop("task", None)
        if options:
            raise ValueError(f"unknown reset options {sorted(options)}; allowed: task")
        n = len(self.core.pool)
        if choice is None:
            self.task = int(self.np_random.integers(n))
        elif isinstance(choice, str):
            if choice not in self.core.pool.ids:
                raise KeyError(f"task {choice!r} is not in the pool {self.core.pool.folder}")
            self.task = self.core.pool.ids.index(choice)
        elif not 0 <= int(choice) < n:
            raise ValueError(f"task index must be in [0, {n}), got {choice}")
        else:
            self.task = int(choice)
        self._done = False
        obs = self._single(self.core.observe(np.array([self.task])))
        return obs, {"task": self.task, "task_id": self.core.pool.ids[self.task]}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("call reset() before step(): every episode is one drag")
        self._done = True
        if not self.action_space.contains(np.asarray(action, dtype=self.action_space.dtype)):
            info = {"success": False, "start_correct": False, "task": self.task,
                    "last_action_error": f"action {action!r:.80} is not in {self.action_space}"}  # fmt: skip
            return self._single(self.core.observe(np.array([self.task]))), 0.0, True, False, info
        out = self.core.outcome(np.array([self.task]), np.asarray(action)[None])
        info = {
            "success": bool(out["success"][0]),
            "start_correct": bool(out["start_correct"][0]),
            "task": self.task,
            "task_id": self.core.pool.ids[self.task],
            "last_action_error": "",
        }
        obs = self._single(self.core.observe(np.array([self.task])))
        return obs, float(info["success"]), True, False, info

    def render(self) -> np.ndarray | None:
        if self.render_mode != "rgb_array":
            return None
        return self.core.pool.pixels[self.core.setting][self.task]

    @staticmethod
    def _single(batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        return {k: v[0] for k, v in batch.items()}
