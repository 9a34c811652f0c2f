"""Generated tasks (seeded, solvable with geometry regions) and the single-drag command."""

from __future__ import annotations

import json

import pytest

from scratch_gym.agents.single_drag import DragOracleAgent
from scratch_gym.envs.single_drag import SingleDragEnv
from scratch_gym.single_drag.generation.generator import TaskGenerator


def test_generator_is_seeded(editor_page):
    a = TaskGenerator(7).sample(editor_page).to_json()
    b = TaskGenerator(7).sample(editor_page).to_json()
    assert a == b


@pytest.mark.browser
def test_generated_episodes_run_with_geometry_regions():
    env = SingleDragEnv(tasks="generated", shaped_reward=True)
    try:
        obs, info = env.reset(seed=11)
        assert env.task.regions.method == "geometry"
        oracle = DragOracleAgent()
        oracle.bind(env)
        oracle.reset(env.task)
        _, reward, terminated, _, info = env.step(oracle.act(obs, info))
        assert terminated and info["start_correct"]
        assert reward == 1.0 or -1.0 <= reward < 0.0
    finally:
        env.close()


@pytest.mark.browser
def test_cli_prints_the_table_and_json(capsys, tmp_path):
    """``single-drag --agent`` is a shortcut of ``eval --suite single-drag``: the same runner
    (results file, resume), the paper's table with a row per agent and setting, the common JSON."""
    from scratch_gym.cli import main

    results = tmp_path / "sd.jsonl"
    argv = ["single-drag", "--agent", "oracle", "--setting", "baseline", "--setting", "gt_start",
            "--tasks", "dc-01", "si-01", "--runs", "1", "--workers", "1",
            "--results", str(results), "--quiet", "--json"]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[1].split()[:6] == ["Agent", "Setting", "Tasks", "Runs", "Pass@1", "Pass@2"]
    assert [line.split()[:7] for line in out[3:5]] == [
        ["oracle", "baseline", "2", "1", "100.0", "n/a", "n/a"],  # one run: no Pass@2, Pass@3
        ["oracle", "gt_start", "2", "1", "100.0", "n/a", "n/a"],
    ]
    payload = json.loads(out[-1])
    assert payload["suite"] == "single-drag" and payload["episodes"] == 4
    assert payload["agent"] == "oracle" and payload["success_rate"] == 1.0
    assert payload["pass@1"] == 1.0 and {"start_acc", "end_acc"} <= set(payload)
    records = [json.loads(line) for line in results.read_text().splitlines()]
    assert {(r["setting"], r["success"]) for r in records} == {
        ("baseline", True),
        ("gt_start", True),
    }
    # again: the results file already holds these episodes; --resume runs none of them again
    assert main(argv) == 2
    assert "already holds" in capsys.readouterr().err
    assert main([*argv, "--resume"]) == 0
    assert len(results.read_text().splitlines()) == 4
