"""Recording one demonstration: the runner's episode loop on a capturing environment, and the
staged episode files that ``scratch-gym demos`` resumes from and builds datasets out of.

Each episode is staged under ``<out>/.episodes/<dataset name>/`` as ``<name>.json`` (its result
record: status, steps, ...) and, when it is kept, ``<name>.npz`` (pixels and a JSON document of
texts, actions, rewards, terminations, truncations and infos). Staging one file pair per episode
lets worker processes write side by side and an interrupted run resume where it stopped.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from scratch_gym.demos.format import DemoFormat, step_info


@dataclass
class EpisodeData:
    """What one episode adds to a dataset (observations have one entry more than actions)."""

    pixels: list[np.ndarray] = field(default_factory=list)
    texts: dict[str, list[str]] = field(default_factory=dict)
    actions: list[Any] = field(default_factory=list)
    rewards: list[float] = field(default_factory=list)
    terminations: list[bool] = field(default_factory=list)
    truncations: list[bool] = field(default_factory=list)
    infos: list[dict[str, Any]] = field(default_factory=list)

    def add_observation(self, obs: dict[str, Any]) -> None:
        self.pixels.append(obs["pixels"])
        for name, value in obs.items():
            if name != "pixels":
                self.texts.setdefault(name, []).append(value)


class Capture(gym.Wrapper):
    """Keeps every observation, action, reward and info of the current episode in ``data``."""

    def __init__(self, env: DemoFormat) -> None:
        super().__init__(env)
        self.data = EpisodeData()

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        self.data = EpisodeData()
        self.data.add_observation(obs)
        self.data.infos.append(step_info(info))
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        encoded = self.env.encode_action(action)
        obs, reward, terminated, truncated, info = self.env.step(encoded)
        self.data.actions.append(encoded)
        self.data.add_observation(obs)
        self.data.rewards.append(float(reward))
        self.data.terminations.append(bool(terminated))
        self.data.truncations.append(bool(truncated))
        self.data.infos.append(step_info(info))
        return obs, reward, terminated, truncated, info


def save_episode(folder: Path, name: str, data: EpisodeData) -> int:
    """Stage ``data`` as ``folder/name.npz`` (atomically); returns the file's size in bytes."""
    doc = {
        "texts": data.texts,
        "actions": [_jsonable(a) for a in data.actions],
        "rewards": data.rewards,
        "terminations": data.terminations,
        "truncations": data.truncations,
        "infos": data.infos,
    }
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f"{name}.tmp.npz"
    np.savez_compressed(tmp, pixels=np.stack(data.pixels), doc=np.array(json.dumps(doc)))
    os.replace(tmp, folder / f"{name}.npz")
    return (folder / f"{name}.npz").stat().st_size


def load_episode(path: Path) -> tuple[np.ndarray, dict[str, Any]]:
    """A staged episode: (pixels (T+1, H, W, 3), the JSON document)."""
    with np.load(path) as npz:
        return npz["pixels"], json.loads(str(npz["doc"]))


def save_record(folder: Path, name: str, record: dict[str, Any]) -> None:
    """Stage an episode's result record (written last: its presence marks the episode done)."""
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f"{name}.tmp.json"
    tmp.write_text(json.dumps(record, default=str, sort_keys=True))
    os.replace(tmp, folder / f"{name}.json")


def _jsonable(action: Any) -> Any:
    if isinstance(action, dict):
        return {k: v.tolist() if isinstance(v, np.ndarray) else v for k, v in action.items()}
    return action
