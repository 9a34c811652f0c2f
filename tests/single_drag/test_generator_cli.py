"""Generated tasks (seeded, solvable with geometry regions) and the single-drag command."""

from __future__ import annotations

import json

from scratch_gym.agents.single_drag import DragOracleAgent
from scratch_gym.cli import single_drag as cli
from scratch_gym.single_drag.env import SingleDragEnv
from scratch_gym.single_drag.generator import TaskGenerator


def test_generator_is_seeded(editor_page):
    a = TaskGenerator(7).sample(editor_page).to_json()
    b = TaskGenerator(7).sample(editor_page).to_json()
    assert a == b


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


def test_cli_prints_the_table_and_json(capsys):
    import argparse

    parser = argparse.ArgumentParser()
    cli.register(parser.add_subparsers())
    args = parser.parse_args(
        [
            "single-drag",
            "--agent",
            "oracle",
            "--tasks",
            "dc-01",
            "si-01",
            "--runs",
            "1",
            "--json",
            "--quiet",
        ]  # fmt: skip
    )
    assert args.handler(args) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0].split()[:4] == ["Agent", "Setting", "Pass@1", "Pass@2"]
    payload = json.loads(out[-1])
    assert payload["pass@1"] == 1.0 and payload["tasks"] == 2
    assert {"start_acc", "end_acc"} <= set(payload)
