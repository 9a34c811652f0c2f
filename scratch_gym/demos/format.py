"""The demonstration format: what a dataset step holds, as a Gymnasium wrapper Minari can rebuild.

Minari stores spaces it can serialise and rebuilds the environment from its spec (registered id,
kwargs and wrappers). :class:`DemoFormat` wraps a ScratchWorld environment so that its spaces are
exactly the dataset's, and ``dataset.recover_environment()`` returns the same wrapped environment.

Observations (both modes), a ``Dict``:

* ``pixels``: the editor's screenshot resized to ``obs_size`` (W x H), ``uint8`` RGB; stored
  JPEG-encoded by Minari unless the dataset was made lossless;
* ``instruction`` and ``last_action_error``: text;
* composite mode also keeps its text observation (``pseudocode``, ``fields``, ``target``,
  ``targets``, ``variables``, ``last_action_result``).

The primitive mode's element list is left out (it is long, and derived from the page's DOM).

Actions:

* primitive: the environment's own ``Dict`` action with every key present (a canonical point of
  the space): ``action_type`` index, ``start``/``end``/``scroll`` float32 pairs (zeros when the
  action does not use them), ``element``/``end_element`` -1, ``keys``/``text`` "". Coordinates
  stay in editor viewport pixels (1280 x 720), not ``obs_size`` pixels.
* composite: the environment's own text action, the JSON object ``{"api": ..., "args": {...}}``.

Infos per step: ``psr`` (float), ``success`` (bool), ``action_error`` (bool: the action was
refused), ``step_time_ms`` (float).
"""

from __future__ import annotations

import json
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from PIL import Image

from scratch_gym.actions.primitive import ACTION_NAMES
from scratch_gym.editor.page import VIEWPORT
from scratch_gym.suites.tasks import MODE_ENV_IDS

DEFAULT_OBS_SIZE = (320, 180)
DEMO_MODES = ("primitive", "composite")
TEXT_FIELDS = ("instruction", "last_action_error")
PAIR_FIELDS = ("start", "end", "scroll")


def parse_obs_size(text: str) -> tuple[int, int]:
    """``"320x180"`` -> (320, 180); a clear error for anything else."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"--obs-size must be WxH, e.g. 320x180; got {text!r}") from None
    if not (32 <= w <= VIEWPORT[0] and 32 <= h <= VIEWPORT[1]):
        raise ValueError(
            f"--obs-size {w}x{h} is out of range: width 32-{VIEWPORT[0]}, height 32-{VIEWPORT[1]}"
        )
    return w, h


class DemoFormat(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """A ScratchWorld environment with the demonstration spaces (see the module docstring)."""

    def __init__(self, env: gym.Env, obs_width: int = 320, obs_height: int = 180) -> None:
        gym.utils.RecordConstructorArgs.__init__(self, obs_width=obs_width, obs_height=obs_height)
        gym.Wrapper.__init__(self, env)
        self.size = (int(obs_width), int(obs_height))
        inner = env.observation_space
        self.mode = "composite" if isinstance(env.action_space, spaces.Text) else "primitive"
        fields: dict[str, spaces.Space] = {
            "pixels": spaces.Box(0, 255, (self.size[1], self.size[0], 3), np.uint8)
        }
        for name, space in inner.spaces.items():
            if isinstance(space, spaces.Text) and (self.mode == "composite" or name in TEXT_FIELDS):
                fields[name] = space
        self.observation_space = spaces.Dict(fields)
        self.action_space = env.action_space

    # -- observations ----------------------------------------------------------------------------
    def observation(self, obs: dict[str, Any]) -> dict[str, Any]:
        frame = obs.get("screenshot") if isinstance(obs, dict) else None
        if frame is None:
            frame = self.env.render()
        if frame is None:
            raise RuntimeError("the demonstration format needs render_mode='rgb_array'")
        out: dict[str, Any] = {"pixels": resize(frame, self.size)}
        for name in self.observation_space.spaces:
            if name != "pixels":
                out[name] = str(obs.get(name, ""))
        return out

    def reset(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        return self.observation(obs), info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(self.encode_action(action))
        return self.observation(obs), reward, terminated, truncated, info

    # -- actions ---------------------------------------------------------------------------------
    def encode_action(self, action: Any) -> Any:
        """An agent's action as a point of the dataset's action space (see the docstring)."""
        if self.mode == "composite":
            return action if isinstance(action, str) else json.dumps(action, sort_keys=True)
        return canonical_primitive(action)


def canonical_primitive(action: dict[str, Any]) -> dict[str, Any]:
    """A primitive action with every key of the action space present (a valid space point)."""
    kind = action.get("action_type", action.get("type"))
    index = ACTION_NAMES.index(kind) if isinstance(kind, str) else int(kind)
    out: dict[str, Any] = {"action_type": index}
    for name in PAIR_FIELDS:
        value = action.get(name)
        out[name] = np.asarray(value if value is not None else (0.0, 0.0), dtype=np.float32)
    for name in ("element", "end_element"):
        value = action.get(name)
        out[name] = int(value) if value is not None else -1
    out["keys"] = str(action.get("keys") or "")
    out["text"] = str(action.get("text") or "")
    return out


def step_info(info: dict[str, Any]) -> dict[str, Any]:
    """The info fields every dataset step keeps (same keys and types at every step)."""
    return {
        "psr": float(info.get("psr", info.get("initial_psr", 0.0)) or 0.0),
        "success": bool(info.get("success", False)),
        "action_error": bool(info.get("last_action_error")),
        "step_time_ms": float(info.get("step_time_ms", 0.0) or 0.0),
    }


def resize(frame: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``frame`` (H, W, 3) resized to ``size`` (W, H) with area averaging."""
    if frame.shape[1] == size[0] and frame.shape[0] == size[1]:
        return np.ascontiguousarray(frame[..., :3], dtype=np.uint8)
    image = Image.fromarray(np.asarray(frame[..., :3], dtype=np.uint8))
    return np.asarray(image.resize(size, Image.Resampling.BOX), dtype=np.uint8)


def make_demo_env(
    mode: str, obs_size: tuple[int, int] = DEFAULT_OBS_SIZE, reward_mode: str = "sparse"
) -> DemoFormat:
    """The wrapped environment recordings use (and Minari's ``recover_environment`` rebuilds)."""
    import scratch_gym  # noqa: F401  (registers the ids)

    if mode not in DEMO_MODES:
        raise ValueError(f"unknown mode {mode!r}; allowed: {', '.join(DEMO_MODES)}")
    env = gym.make(MODE_ENV_IDS[mode], render_mode="rgb_array", reward_mode=reward_mode)
    return DemoFormat(env, obs_width=obs_size[0], obs_height=obs_size[1])


__all__ = [
    "DEFAULT_OBS_SIZE",
    "DemoFormat",
    "canonical_primitive",
    "make_demo_env",
    "parse_obs_size",
    "resize",
    "step_info",
]
