"""The PPO pipeline on generated single-drag tasks runs end to end and saves its outputs."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

pytest.importorskip("stable_baselines3", reason="needs the rl extra")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_drag_ppo.py"


@pytest.mark.slow
@pytest.mark.browser
def test_short_ppo_run_completes_and_saves_a_model(tmp_path):
    import torch

    torch.set_num_threads(1)  # the browser needs the other core
    spec = importlib.util.spec_from_file_location("train_drag_ppo", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = tmp_path / "ppo"
    results = module.main(
        [
            "--timesteps", "8", "--envs", "1", "--n-steps", "8", "--ramp", "50",
            "--eval-generated", "2", "--eval-stored", "0", "--out", str(out),
        ]
    )  # fmt: skip
    assert (out / "model.zip").stat().st_size > 10_000
    assert (out / "learning_curve.png").stat().st_size > 1_000
    saved = json.loads((out / "results.json").read_text())
    assert saved == json.loads(json.dumps(results))
    # (the stored-task evaluation is the same loop on another env: --eval-stored 0 here)
    for key in ("generated_trained", "generated_random"):
        assert 0.0 <= saved[key]["success"] <= 1.0
    assert saved["generated_trained"]["episodes"] == 2
