"""Exported scratch-gym tasks through ``scratch-gym serve --scratchworld EXPORT``: their evaluate
route, called as their runner calls it, gives scratch-gym's own verdict on the same project (the
starting project fails, the golden passes); a stale export is refused; and their unmodified
``task_runner.py`` solves an exported task in composite mode with the scripted endpoint."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest

from scratch_gym.scratchworld.checkout import SCRIPTS_DIR, STATIC_DIR
from scratch_gym.scratchworld.export import export_tasks
from scratch_gym.serve.dropin import run_results, run_task_runner
from scratch_gym.serve.scripted_endpoint import ScriptedEndpoint
from scratch_gym.tasks import Evaluator, load_task
from tests.serve.conftest import WAIT_CAP_S, Served, free_port, require_checkout, start
from tests.serve.test_their_runner import require_client_venv

pytestmark = pytest.mark.browser

TASKS = ("say-hello", "fix-bounce", "sum-to-n")  # python tests; a debug task; ask + [[cases]]


@pytest.fixture(scope="module")
def export_served(tmp_path_factory) -> Iterator[Served]:
    from scratch_gym.serve.config import ServeConfig

    out = tmp_path_factory.mktemp("exported") / "sw"
    export_tasks([load_task(t) for t in TASKS], out)
    stale = (out / SCRIPTS_DIR / "say-hello.js").read_text().replace("sha256:", "sha256:0", 1)
    (out / SCRIPTS_DIR / "stale-copy.js").write_text(stale)
    config = ServeConfig(scratchworld=out, port=free_port(), parallel=1, max_sessions=2)
    app, thread, server = start(config)
    yield Served(f"http://127.0.0.1:{config.port}", out, app)
    server.should_exit = True
    thread.join(60)


def their_evaluation(url: str, project: str, task_name: str) -> dict:
    """Their runner's calls: a session, load_project, toggle_stage, evaluate; the answer."""
    with httpx.Client(base_url=url, timeout=180) as client:
        sid = client.post("/sessions").json()["session_id"]
        try:
            r = client.post(f"/sessions/{sid}/load_project", params={"project_name": project})
            assert r.status_code == 200, r.text
            assert client.post(f"/sessions/{sid}/toggle_stage").status_code == 200
            body = {
                "task_name": task_name,
                "sb3_file_name": "x.sb3",
                "evaluation_method": "browser",
            }
            r = client.post(f"/sessions/{sid}/evaluate", json=body)
            assert r.status_code == 200, r.text
            return r.json()
        finally:
            client.delete(f"/sessions/{sid}")


@pytest.mark.parametrize("task_id", TASKS)
@pytest.mark.parametrize("which", ["start", "golden"])
def test_their_evaluate_gives_our_verdict(export_served, editor_page, task_id, which):
    name = f"{task_id}.sb3" if which == "start" else f"{task_id}_golden.sb3"
    answer = their_evaluation(export_served.url, name, task_id)
    assert answer["status"] == "success", answer
    theirs = answer["result"]
    data = (export_served.root / STATIC_DIR / name).read_bytes()
    ours = Evaluator(editor_page, load_task(task_id)).evaluate(data)
    assert theirs["success"] is ours.success is (which == "golden")
    assert theirs["partial_success_rate"] == pytest.approx(ours.psr)
    assert (theirs["passed_tests"], theirs["total_tests"]) == (ours.passed, len(ours.tests))
    assert [(d["name"], d["passed"], d["message"]) for d in theirs["details"]] == [
        (t.name, t.passed, t.message) for t in ours.tests
    ]
    assert theirs["task"] == task_id


def test_a_stale_export_is_refused(export_served):
    answer = their_evaluation(export_served.url, "say-hello_golden.sb3", "stale-copy")
    assert answer["status"] == "failed"
    assert "changed since it was exported" in answer["error"]


@pytest.mark.slow
def test_their_task_runner_solves_an_exported_task(export_served, tmp_path):
    checkout = require_checkout()
    python = require_client_venv()
    task = "say-hello"
    with ScriptedEndpoint(export_served.root) as endpoint:
        run = run_task_runner(
            python, checkout, tmp_path, export_served.url, endpoint.base_url, [task],
            max_steps=20, tasks_root=export_served.root, wait_cap_s=WAIT_CAP_S,
        )  # fmt: skip
        mismatches = endpoint.mismatches
    assert run.returncode == 0, run.output[-4000:]
    result = run.result(task, "create")
    assert result is not None, run.output[-4000:]
    assert result["success"] is True, json.dumps(result.get("evaluation"), indent=1)
    evaluation = result["evaluation"]
    assert evaluation["task"] == task and evaluation["partial_success_rate"] == 1.0
    assert result["agent_interaction"]["final_status"] == "done" and mismatches == 0
    summary = run_results(python, checkout, run.result_dir)
    assert summary.returncode == 0, summary.stderr
    assert "Success: 1 (100.00%)" in summary.stdout, summary.stdout
