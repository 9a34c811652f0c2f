"""ScratchWorld's own, unmodified ``task_runner.py`` (scratch-agent, composite and primitive mode)
end to end against ``scratch-gym serve`` and the scripted OpenAI-compatible endpoint, in their
client's own virtualenv; their ``results.py`` reads the result folder it writes."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from scratch_gym.serve.dropin import (
    VENV_SCRIPT,
    client_env,
    client_python,
    run_results,
    run_task_runner,
)
from scratch_gym.serve.scripted_endpoint import ScriptedEndpoint, next_step, reply, theirs
from scratch_gym.serve.scripted_primitive import their_action
from tests.serve.conftest import WAIT_CAP_S, require_checkout
from tests.shared_data import REPO_ROOT, REQUIRE_SHARED

VENV = Path(os.environ.get("SCRATCHWORLD_CLIENT_VENV", REPO_ROOT / ".scratchworld-client-venv"))
TASK = "say_hello"  # four composite actions, then done


def require_client_venv() -> Path:
    python = client_python(VENV)
    if python is not None:
        return python
    reason = (
        f"ScratchWorld's client venv {VENV} is missing: build it with `{VENV_SCRIPT} {VENV}` "
        "(or set SCRATCHWORLD_CLIENT_VENV)"
    )
    if os.environ.get(REQUIRE_SHARED) == "1":
        pytest.fail(f"{reason}; {REQUIRE_SHARED}=1 requires it")
    pytest.skip(reason)


def test_a_reply_names_its_step_and_the_next_turn_reads_it():
    text = reply(3, 5, "say_hello", {"api": "done"})
    assert text.startswith("Analysis:") and '```json\n{"api": "done"}\n```' in text
    messages = [{"role": "system", "content": "x"}, {"role": "assistant", "content": text}]
    assert next_step(messages) == 3 and next_step(messages[:1]) == 0


def test_our_actions_become_their_api_names_and_numbers():
    ids = {1: "a", 2: "b"}.__getitem__
    their = {"a": 5, "b": 7}.__getitem__
    connect = {
        "api": "connect_blocks",
        "args": {"source": 1, "target": 2, "placement": "value_into", "input": "MESSAGE"},
    }
    assert theirs(connect, ids, their) == {
        "api": "connect_blocks",
        "args": {
            "sourceBlockIndex": 5,
            "targetBlockIndex": 7,
            "placement": {"kind": "value_into", "inputName": "MESSAGE"},
        },
    }
    add = {"api": "add_block", "args": {"opcode": "data_setvariableto", "variable": "n"}}
    assert theirs(add, ids, their) == {
        "api": "add_block",
        "args": {"blockType": "data_setvariableto", "creation": {"variableName": "n"}},
    }
    field = {"api": "set_block_field", "args": {"index": 2, "field": "QUESTION", "value": "hi"}}
    assert theirs(field, ids, their)["args"] == {
        "blockIndex": 7,
        "fieldName": "QUESTION",
        "value": "hi",
    }


def test_a_prompt_without_a_known_task_is_refused():
    checkout = require_checkout()
    endpoint = ScriptedEndpoint(checkout)
    try:
        with pytest.raises(ValueError, match="--task"):
            endpoint.answer({"messages": [{"role": "system", "content": "Your task is: nothing"}]})
    finally:
        endpoint.httpd.server_close()
        endpoint.planner.close()


@pytest.mark.browser
@pytest.mark.slow
def test_their_task_runner_solves_a_composite_task(served, tmp_path):
    checkout = require_checkout()
    python = require_client_venv()
    with ScriptedEndpoint(checkout) as endpoint:  # learns the task from the prompt
        # on the real clock: their waits as written (the other runs cap them, WAIT_CAP_S)
        run = run_task_runner(
            python, checkout, tmp_path, served.url, endpoint.base_url, [TASK], max_steps=15
        )
        requests, mismatches = endpoint.requests, endpoint.mismatches
    assert run.returncode == 0, run.output[-4000:]
    result = run.result(TASK, "create")
    assert result is not None, run.output[-4000:]
    assert result["success"] is True, json.dumps(result.get("evaluation"), indent=1)
    interaction = result["agent_interaction"]
    assert interaction["final_status"] == "done"
    assert interaction["steps_used"] == requests == 5 and mismatches == 0
    assert (run.result_dir / "create" / TASK / result["output_file"]).read_bytes()[:2] == b"PK"
    summary = run_results(python, checkout, run.result_dir)
    assert summary.returncode == 0, summary.stderr
    assert "Success: 1 (100.00%)" in summary.stdout, summary.stdout
    assert "Success rate:    1.0000" in summary.stdout and f"- {TASK}" in summary.stdout


def test_a_wait_cap_cuts_every_sleep_in_their_client_and_none_keeps_their_waits():
    python = require_client_venv()
    probe = "import time; time.sleep(60); print(time.sleep.__module__)"
    capped = subprocess.run(
        [str(python), "-c", probe], env=client_env("http://x", wait_cap_s=0.01),
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert capped.returncode == 0, capped.stderr
    assert capped.stdout.strip() == "sitecustomize"  # the 60 s wait took at most 0.01 s
    plain = subprocess.run(
        [str(python), "-c", "import time; print(time.sleep.__module__)"],
        env=client_env("http://x"), capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert plain.stdout.strip() == "time"  # their waits as written
    with pytest.raises(ValueError, match="wait_cap_s must be a number of seconds >= 0, got -1"):
        client_env("http://x", wait_cap_s=-1)


def test_our_gestures_become_their_primitive_calls():
    assert their_action({"action_type": "click", "start": [10.4, 20.6]}) == [
        {"api": "click", "args": {"x": 10, "y": 21}}
    ]
    drag = {"action_type": "drag", "start": [1, 2], "end": [300.2, 400.7]}
    assert their_action(drag) == [
        {
            "api": "drag_and_drop",
            "args": {"start_x": 1, "start_y": 2, "end_x": 300, "end_y": 401, "duration": 0},
        }
    ]
    scroll = {"action_type": "scroll", "start": [180, 400], "scroll": [-30.0, 250.0]}
    assert their_action(scroll) == [
        {"api": "scroll", "args": {"direction": "down", "amount": 250, "x": 180, "y": 400}},
        {"api": "scroll", "args": {"direction": "left", "amount": 30, "x": 180, "y": 400}},
    ]
    assert their_action({"action_type": "hotkey", "keys": "Control+z"}) == [
        {"api": "hotkey", "args": {"keys": ["Control", "z"]}}
    ]
    assert their_action({"action_type": "key", "keys": "Escape"}) == [
        {"api": "key", "args": {"key": "Escape"}}
    ]
    assert their_action({"action_type": "type", "text": "hello"})[0]["args"] == {"text": "hello"}
    assert their_action({"action_type": "done"}) == [{"api": "done"}]


def test_a_primitive_prompt_without_serve_is_answered_failed():
    checkout = require_checkout()
    endpoint = ScriptedEndpoint(checkout, task=TASK)
    try:
        text = endpoint.answer(
            {"messages": [{"role": "system", "content": "... using primitive UI actions. ..."}]}
        )
    finally:
        endpoint.httpd.server_close()
        endpoint.planner.close()
    assert '"api": "failed"' in text and "--serve" in text


@pytest.mark.browser
@pytest.mark.slow
def test_their_task_runner_solves_a_primitive_task(served, tmp_path):
    checkout = require_checkout()
    python = require_client_venv()
    with ScriptedEndpoint(checkout, serve_url=served.url) as endpoint:
        run = run_task_runner(
            python, checkout, tmp_path, served.url, endpoint.base_url, [TASK],
            mode="primitive", max_steps=40, wait_cap_s=WAIT_CAP_S,
        )  # fmt: skip
    assert run.returncode == 0, run.output[-4000:]
    result = run.result(TASK, "create")
    assert result is not None, run.output[-4000:]
    interaction = result["agent_interaction"]
    turns = interaction["interaction_log"]["interactions"]
    actions = [t["result"] for t in turns if t["result"]["executed_action"]["api"] != "done"]
    assert actions and all(a["success"] for a in actions), json.dumps(actions, indent=1)[-4000:]
    assert {a["executed_action"]["api"] for a in actions} >= {"click", "drag_and_drop", "type"}
    assert interaction["final_status"] == "done"
    assert result["success"] is True, json.dumps(result.get("evaluation"), indent=1)
    summary = run_results(python, checkout, run.result_dir)
    assert summary.returncode == 0, summary.stderr
    assert "Success: 1 (100.00%)" in summary.stdout, summary.stdout
