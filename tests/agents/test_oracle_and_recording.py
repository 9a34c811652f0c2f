"""The oracle solves a task with real drags computed from block geometry; the episode's
recording has one frame per step plus the end, with the actions drawn."""

from __future__ import annotations

import json

import numpy as np
from PIL import Image

from scratch_gym.agents.primitive_oracle import PrimitiveOracleAgent
from scratch_gym.runner.episode import run_episode
from scratch_gym.runner.recording import ACTION_COLOUR, BANNER, END_COLOUR
from scratch_gym.tasks import load_task
from tests.agents.conftest import TASK


def test_oracle_solves_the_task_and_the_recording_shows_it(primitive_env, tmp_path):
    outcome = run_episode(
        primitive_env, PrimitiveOracleAgent(), load_task(TASK), record_dir=str(tmp_path)
    )
    assert outcome["status"] == "success" and outcome["success"] and outcome["psr"] == 1.0
    assert outcome["action_errors"] == 0

    steps = json.loads((tmp_path / "steps.json").read_text())
    frames = sorted((tmp_path / "frames").glob("*.png"))
    assert len(steps) == outcome["steps"] and len(frames) == outcome["steps"] + 1
    gif = Image.open(tmp_path / "episode.gif")
    assert gif.n_frames == len(frames)
    html = (tmp_path / "index.html").read_text()
    assert html.count('class="step"') == len(frames) and "success, psr 1.00" in html

    drags = [i for i, s in enumerate(steps) if s["action"]["action_type"] == "drag"]
    assert len(drags) == 3  # one per block of the golden script
    for i in drags:
        image = np.asarray(Image.open(frames[i]).convert("RGB")).astype(int)
        start, end = steps[i]["action"]["start"], steps[i]["action"]["end"]
        assert _ring_at(image, start, ACTION_COLOUR) and _ring_at(image, end, END_COLOUR)
    assert steps[-1]["action"] == {"action_type": "done"}


def _ring_at(image: np.ndarray, point: list[float], colour: tuple[int, int, int]) -> bool:
    """Pixels of ``colour`` on the ring of radius 14 around ``point`` (frame coordinates)."""
    x, y = int(round(point[0])), int(round(point[1])) + BANNER
    patch = image[y - 16 : y + 17, x - 16 : x + 17]
    close = np.abs(patch - np.array(colour)).sum(axis=2) < 30
    return int(close.sum()) > 40
