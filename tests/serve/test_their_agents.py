"""ScratchWorld's own, unmodified ``task_runner.py`` with their **Agent-S2** and **AWM** agents
end to end against ``scratch-gym serve`` and the scripted endpoint (no model), in their client's
virtualenv; their ``results.py`` reads the result folders."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from scratch_gym.serve.dropin import VENV_SCRIPT, run_results, run_task_runner
from scratch_gym.serve.scripted_agents import (
    described,
    embedding,
    grounder_answer,
    request_kind,
)
from scratch_gym.serve.scripted_endpoint import ScriptedEndpoint
from tests.serve.conftest import WAIT_CAP_S, require_checkout
from tests.serve.test_their_runner import TASK, VENV, require_client_venv
from tests.shared_data import REQUIRE_SHARED

AGENT_S2_IMPORTS = (
    "import anthropic, backoff, sklearn, tiktoken, pytesseract; from google import genai"
)


def require_agent_s2_packages(python: Path) -> None:
    """Skip (fail under SCRATCH_GYM_REQUIRE_SHARED=1) when the client venv predates Agent-S2's
    packages."""
    if subprocess.run([str(python), "-c", AGENT_S2_IMPORTS], capture_output=True).returncode == 0:
        return
    reason = f"the client venv {VENV} lacks Agent-S2's packages: rebuild it with `{VENV_SCRIPT} {VENV}`"  # fmt: skip
    if os.environ.get(REQUIRE_SHARED) == "1":
        pytest.fail(reason)
    pytest.skip(reason)


def test_the_grounders_point_maps_back_to_the_oracles_pixel():
    # Agent-S2's grounder answers in a frame whose sides are rounded to multiples of 28
    # (1288 x 728 for 1280 x 720); the agent maps a point back with int(p / 1288 * 1280)
    for x, y in ((0, 0), (1, 719), (640, 360), (1279, 1), (37, 503)):
        gx, gy = grounder_answer(x, y)
        assert (int(gx / 1288 * 1280), int(gy / 728 * 720)) == (x, y)


def test_each_role_is_recognised_and_scratch_agent_is_left_alone():
    def system(text: str) -> list[dict]:
        return [{"role": "system", "content": text}, {"role": "user", "content": "hi"}]

    assert request_kind(system("## Task Context\n- Task: x\n- Current Subtask: y")) == "s2.worker"
    assert request_kind(system("You are a reflection agent designed to ...")) == "s2.reflection"
    grounder = [{"role": "user", "content": [{"type": "text", "text": "Query:the cat\n Output only the coordinate of one point in your response."}]}]  # fmt: skip
    assert request_kind(grounder) == "s2.grounder"
    awm = "... using primitive UI actions. Your task is: x\n2. **Memory Section**: Wrap ..."
    assert request_kind(system(awm)) == "awm.turn"
    scratch_agent = "... using high-level APIs. Your task is: x\nAnalysis: <Your thoughts>"
    assert request_kind(system(scratch_agent)) is None


def test_gestures_become_descriptions_that_name_their_point():
    elements = [{"type": "category", "text": "Looks", "x": 0, "y": 100, "w": 60, "h": 50}]
    click = described({"api": "click", "args": {"x": 30, "y": 120}}, elements)
    assert click == {
        "api": "click",
        "args": {"description": "the category 'Looks' [at screen point x=30 y=120]"},
    }
    drag = {"api": "drag_and_drop", "args": {"start_x": 1, "start_y": 2, "end_x": 3, "end_y": 4}}
    args = described(drag, [])["args"]
    assert set(args) == {"source_description", "target_description"}
    assert args["target_description"] == "the screen [at screen point x=3 y=4]"
    assert described({"api": "type", "args": {"text": "hi"}}, []) == {
        "api": "type",
        "args": {"text": "hi"},
    }


def test_embeddings_are_deterministic_unit_vectors():
    a, b = embedding("say hello in Scratch"), embedding("say hello in Scratch")
    assert a == b and abs(sum(v * v for v in a) - 1) < 1e-9
    assert embedding("other words entirely") != a


def _their_run(served, tmp_path: Path, agent: str, mode: str) -> tuple[dict, str]:
    checkout = require_checkout()
    python = require_client_venv()
    if agent == "agent-s2":
        require_agent_s2_packages(python)
    serve_url = served.url if mode == "primitive" else None
    with ScriptedEndpoint(checkout, serve_url=serve_url) as endpoint:
        run = run_task_runner(
            python, checkout, tmp_path, served.url, endpoint.base_url, [TASK],
            mode=mode, agent=agent, max_steps=40, wait_cap_s=WAIT_CAP_S,
        )  # fmt: skip
        mismatches = endpoint.mismatches
    assert run.returncode == 0, run.output[-4000:]
    result = run.result(TASK, "create")
    assert result is not None, run.output[-4000:]
    interaction = result["agent_interaction"]
    assert interaction["final_status"] == "done", json.dumps(interaction, indent=1)[-4000:]
    turns = interaction["interaction_log"]["interactions"]
    actions = [t["result"] for t in turns if t["result"]["executed_action"]["api"] != "done"]
    assert actions and all(a["success"] for a in actions), json.dumps(actions, indent=1)[-4000:]
    assert mismatches == 0
    assert result["success"] is True, json.dumps(result.get("evaluation"), indent=1)
    summary = run_results(python, checkout, run.result_dir)
    assert summary.returncode == 0, summary.stderr
    assert "Success: 1 (100.00%)" in summary.stdout, summary.stdout
    return result, run.output


@pytest.mark.browser
@pytest.mark.slow
def test_their_runner_with_agent_s2_solves_a_primitive_task(served, tmp_path):
    result, _ = _their_run(served, tmp_path, "agent-s2", "primitive")
    turns = result["agent_interaction"]["interaction_log"]["interactions"]
    apis = {t["result"]["executed_action"]["api"] for t in turns}
    assert apis >= {"click", "drag_and_drop", "type", "done"}
    # the grounder gave the pixels: every executed click/drag has coordinates, no description
    for t in turns:
        args = t["result"]["executed_action"]["args"]
        assert not any(k.endswith("description") for k in args), args
    memory = tmp_path / "kb_scratch_scripted_oracle" / "linux"
    assert (memory / "narrative_memory.json").is_file()  # their narrative memory was updated


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("mode", ["composite", "primitive"])
def test_their_runner_with_awm_solves_a_task(served, tmp_path, mode):
    result, _ = _their_run(served, tmp_path, "awm", mode)
    folder = tmp_path / "scratchbench" / "docs"
    autoeval = json.loads(
        (tmp_path / f"result_scripted_oracle_{mode}_awm" / "create" / TASK / "autoeval.json")
        .read_text(encoding="utf-8")
    )  # fmt: skip
    assert autoeval["success"] is True
    trajs = json.loads(
        (folder / f"awm_successful_trajs_scripted_oracle_{mode}.json").read_text(encoding="utf-8")
    )
    assert len(trajs) == 1 and "scripted oracle step" in trajs[0]["traj"]
    workflows = (folder / f"awm_workflows_scripted_oracle_{mode}.txt").read_text(encoding="utf-8")
    assert workflows.startswith("Workflow 1:")
