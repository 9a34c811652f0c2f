"""ScratchWorld's own, unmodified client code against ``scratch-gym serve``: their environment
client (``scratchbench/core/agent_client.py``) observes and acts in primitive mode by element
index, and the session, project, export and evaluate requests are sent exactly as their
``task_runner.py`` sends them; the verdicts are their scripts' on the golden and starting
projects."""

from __future__ import annotations

import base64
import sys

import pytest
import requests

from tests.serve.conftest import require_checkout

pytestmark = pytest.mark.browser
TASK = "calculate_gcd"


@pytest.fixture
def their_env_class():
    root = require_checkout()
    sys.path.insert(0, str(root))
    try:
        from scratchbench.core.agent_client import ScratchAgentEnvironment
    finally:
        sys.path.remove(str(root))
    return ScratchAgentEnvironment


def runner_setup(api_url: str, task_name: str, initial_project: str) -> str:
    """``TaskRunner.create_session`` and ``setup_environment``'s requests."""
    options = {"record": True, "quality": "medium", "task_name": task_name}
    resp = requests.post(f"{api_url}/sessions", params=options, timeout=20)
    assert resp.status_code == 200, resp.text
    sid = resp.json()["session_id"]
    url = f"{api_url}/sessions/{sid}"
    resp = requests.post(f"{url}/load_project", params={"project_name": initial_project})
    assert resp.status_code == 200, resp.text
    assert requests.post(f"{url}/toggle_stage").status_code == 200
    return sid


def runner_export_and_evaluate(api_url: str, sid: str, task_name: str) -> dict:
    """``TaskRunner.export_project`` and ``run_evaluation``'s requests and reading of answers."""
    url = f"{api_url}/sessions/{sid}"
    response = requests.post(f"{url}/export_project", params={"output_name": f"{task_name}_1.sb3"})
    assert response.status_code == 200
    raw = base64.b64decode(response.json()["data_base64"])
    assert raw[:2] == b"PK" and len(raw) == response.json()["size"]
    response = requests.post(
        f"{url}/evaluate",
        json={"task_name": task_name, "sb3_file_name": f"{task_name}_1.sb3",
              "evaluation_method": "browser"},
        timeout=120,
    )  # fmt: skip
    assert response.status_code == 200, response.text
    result = response.json()
    assert result.get("status") != "failed", result
    return result.get("result")


def test_a_primitive_episode_and_its_evaluation(served, their_env_class) -> None:
    sid = runner_setup(served.url, TASK, f"{TASK}.sb3")
    try:
        env = their_env_class(
            api_url=served.url, mode="primitive", session_id=sid, enable_ocr=False,
            documents_config={},
        )  # fmt: skip
        obs = env.get_observation()
        assert obs["screenshot"] and obs["elements"].startswith("index    type    text    position")
        blocks = [e for e in env._current_elements if e.get("block_name") == "motion_movesteps"]
        assert blocks, obs["elements"]
        result = env.execute_action_plan(
            {"api": "drag_and_drop",
             "args": {"start_index": blocks[0]["index"], "end_x": 600, "end_y": 500}}
        )  # fmt: skip
        assert result["success"] is True, result
        assert result["executed_action"]["args"]["end_x"] == 600
        obs = env.get_observation()
        assert "motion_movesteps on canvas" in obs["elements"]
        category = next(e for e in env._current_elements if e["type"] == "category_menu_item")
        clicked = env.execute_action_plan({"api": "click", "args": {"index": category["index"]}})
        assert clicked["success"] is True
        key = env.execute_action_plan({"api": "hotkey", "args": {"keys": ["ctrl", "z"]}})
        assert key["success"] is True and key["error"] is None
        verdict = runner_export_and_evaluate(served.url, sid, TASK)
        assert verdict["success"] is False  # an unsolved project fails their script
    finally:
        requests.delete(f"{served.url}/sessions/{sid}", timeout=20)


def test_the_golden_project_passes_their_script(served) -> None:
    require_checkout()
    sid = runner_setup(served.url, TASK, f"{TASK}_golden.sb3")
    try:
        verdict = runner_export_and_evaluate(served.url, sid, TASK)
        assert verdict["success"] is True, verdict
    finally:
        requests.delete(f"{served.url}/sessions/{sid}", timeout=20)
