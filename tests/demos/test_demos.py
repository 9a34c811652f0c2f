"""``scratch-gym demos`` writes Minari datasets that Minari loads, whose environment it rebuilds,
whose actions replay to success there; recording resumes and runs on worker processes."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scratch_gym.cli import main

minari = pytest.importorskip("minari")


def demos(capsys, *args: str) -> tuple[int, dict]:
    code = main(["demos", "--no-progress", "--json", *args])
    captured = capsys.readouterr()
    out = captured.out.strip().splitlines()
    return code, (json.loads(out[-1]) if code == 0 else {"error": captured.err})


@pytest.mark.browser
def test_primitive_dataset_loads_recovers_and_replays(tmp_path, capsys, monkeypatch):
    out = tmp_path / "demos"
    args = [
        "--mode",
        "primitive",
        "--tasks",
        "say-hello",
        "--obs-size",
        "160x90",
        "--out",
        str(out),
    ]
    code, figures = demos(capsys, *args)
    assert code == 0 and figures["episodes"] == 1 and figures["success"] == 1
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(out))
    dataset = minari.load_dataset("scratch-gym/tasks-primitive-v0")
    meta = dataset.storage.metadata
    assert meta["total_episodes"] == 1 and meta["total_steps"] == figures["steps"] > 3
    assert meta["scratch_gym"]["episode_steps"] == [figures["steps"]]
    assert meta["scratch_gym"]["episode_tasks"] == ["say-hello"]
    (episode,) = dataset.iterate_episodes()
    assert episode.observations["pixels"].shape == (len(episode) + 1, 90, 160, 3)
    assert episode.observations["instruction"][0].startswith("When the green flag is clicked")
    assert episode.terminations[-1] and not episode.truncations.any()
    assert list(episode.infos["success"][-1:]) == [True] and not episode.infos["success"][0]
    assert episode.actions["action_type"][-1] == 7  # done

    env = dataset.recover_environment()
    try:
        obs, _ = env.reset(options={"task": "say-hello"})
        assert obs["pixels"].shape == (90, 160, 3)
        for t in range(len(episode)):
            action = {k: v[t] for k, v in episode.actions.items()}
            obs, reward, terminated, truncated, info = env.step(action)
            assert not info["last_action_error"], (t, action, info["last_action_error"])
        assert terminated and info["success"]  # the recorded actions solve the task again
    finally:
        env.close()
    # pixels are the JPEG of the screenshot: close to a fresh render of the same state
    assert np.abs(obs["pixels"].astype(int) - episode.observations["pixels"][-1]).mean() < 12


@pytest.mark.slow
@pytest.mark.browser
def test_composite_on_workers_then_resume(tmp_path, capsys):
    out = tmp_path / "demos"
    args = ["--mode", "composite", "--tasks", "say-hello", "fix-bounce", "--out", str(out)]
    code, figures = demos(capsys, *args, "--workers", "2")
    assert code == 0 and figures["episodes"] == 2 and figures["new_episodes"] == 2
    hosts = {json.loads(p.read_text())["host"] for p in (out / ".episodes").rglob("*__run0.json")}
    assert len(hosts) == 2  # two worker processes recorded
    code, again = demos(capsys, *args)
    assert code == 2 and "--resume" in again["error"]
    code, again = demos(capsys, *args, "--resume")
    assert code == 0 and again["new_episodes"] == 0
    assert again["episodes"] == 2 and again["episode_steps"] == figures["episode_steps"]
    dataset = minari.MinariDataset(out / "scratch-gym" / "tasks-composite-v0" / "data")
    assert dataset.total_episodes == 2
    first = next(iter(dataset.iterate_episodes()))
    assert json.loads(first.actions[0])["api"] == "add_block"
