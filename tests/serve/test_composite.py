"""Composite mode through ScratchWorld's own, unmodified environment client: their agents'
``get_blocks_pseudocode`` observation and block-index edits, on their ``ask_and_echo`` task, with
their evaluation script's verdict before and after; their error envelopes; and the latency of a
composite action over HTTP against the same call in process."""

from __future__ import annotations

import re
import statistics
import time
from pathlib import Path

import pytest
import requests

from scratch_gym.serve.composite import CompositeState
from scratch_gym.serve.composite import execute as composite_execute
from scratch_gym.serve.request_bodies import CompositeRequest
from tests.serve.conftest import require_checkout
from tests.serve.test_their_client import (
    runner_export_and_evaluate,
    runner_setup,
    their_env_class,  # noqa: F401  (a fixture)
)

pytestmark = pytest.mark.browser
TASK = "ask_and_echo"
LINE = re.compile(r"^\s*#(\d+) (?:\[top\] )?(\w+)$")
SOLVED = """#1 [top] event_whenflagclicked
#2 sensing_askandwait
- input QUESTION: "What is your name?" (text)
#3 looks_sayforsecs
- input MESSAGE:
  #4 sensing_answer
- input SECS: 2 (math_number)
"""


def indices(pseudocode: str) -> dict[str, int]:
    """Opcode -> the index the pseudocode shows for it (the last one when repeated)."""
    out = {}
    for line in pseudocode.splitlines():
        m = LINE.match(line)
        if m:
            out[m.group(2)] = int(m.group(1))
    return out


def test_a_composite_episode_flips_their_verdict(served, their_env_class) -> None:  # noqa: F811
    sid = runner_setup(served.url, TASK, "default.sb3")
    try:
        env = their_env_class(
            api_url=served.url, mode="composite", session_id=sid, enable_ocr=False,
            documents_config={},
        )  # fmt: skip
        assert runner_export_and_evaluate(served.url, sid, TASK)["success"] is False

        def act(api: str, **args) -> dict:
            result = env.execute_action_plan({"api": api, "args": args})
            assert result["success"] is True, result
            return result

        def observe() -> dict[str, int]:
            obs = env.get_observation()
            assert "error" not in obs, obs
            assert obs["targetName"] == "Sprite1" and "Stage" in obs["availableTargets"]
            return indices(obs["pseudocode"])

        assert observe() == {}
        for opcode in ("event_whenflagclicked", "sensing_askandwait", "looks_sayforsecs"):
            made = act("add_block", blockType=opcode)
            assert made["data"]["blockId"] and made["data"]["connected"] is False
        act("add_block", blockType="sensing_answer")
        at = observe()
        assert set(at) == {"event_whenflagclicked", "sensing_askandwait", "looks_sayforsecs",
                           "sensing_answer"}  # fmt: skip
        act("connect_blocks", sourceBlockIndex=at["sensing_askandwait"],
            targetBlockIndex=at["event_whenflagclicked"], placement={"kind": "stack_after"})  # fmt: skip
        at = observe()
        act("connect_blocks", sourceBlockIndex=at["looks_sayforsecs"],
            targetBlockIndex=at["sensing_askandwait"], placement={"kind": "stack_after"})  # fmt: skip
        at = observe()
        act("connect_blocks", sourceBlockIndex=at["sensing_answer"],
            targetBlockIndex=at["looks_sayforsecs"],
            placement={"kind": "value_into", "inputName": "MESSAGE"})  # fmt: skip
        at = observe()
        done = act("set_block_field", blockIndex=at["sensing_askandwait"], fieldName="QUESTION",
                   value="What is your name?")  # fmt: skip
        assert done["data"]["blockIndex"] == at["sensing_askandwait"]
        raw = env.execute_composite_action("get_blocks_pseudocode")["data"]
        assert raw["pseudocode"] == SOLVED, raw["pseudocode"]
        assert [raw["idxToBlock"][str(i)]["opcode"] for i in range(1, 5)] == [
            "event_whenflagclicked", "sensing_askandwait", "looks_sayforsecs", "sensing_answer"
        ]  # fmt: skip
        assert runner_export_and_evaluate(served.url, sid, TASK)["success"] is True
    finally:
        requests.delete(f"{served.url}/sessions/{sid}", timeout=20)


def post(url: str, api: str, args: dict | None = None) -> dict:
    response = requests.post(f"{url}/composite/execute", json={"api": api, "args": args or {}})
    assert response.status_code == 200, response.text
    return response.json()


def test_their_error_envelopes_leave_the_session_working(served) -> None:
    require_checkout()
    sid = runner_setup(served.url, TASK, "default.sb3")
    url = f"{served.url}/sessions/{sid}"
    try:
        stale = post(url, "connect_blocks", {"sourceBlockIndex": 1, "targetBlockIndex": 2,
                                             "placement": {"kind": "stack_after"}})  # fmt: skip
        assert stale["success"] is False and stale["error"]["code"] == "INVALID_STATE"
        unknown = post(url, "fly_to_the_moon", {"speed": 3})
        assert unknown["success"] is False and unknown["error"]["code"] == "UNSUPPORTED"
        assert unknown["requested_action"] == {"api": "fly_to_the_moon", "args": {"speed": 3}}
        assert set(unknown) == {"success", "requested_action", "executed_action", "data",
                                "error", "meta"}  # fmt: skip
        bad = post(url, "set_block_field", {"blockIndex": "first", "fieldName": "X", "value": 1})
        assert bad["success"] is False and bad["error"]["code"] == "INVALID_ARG"
        assert "blockIndex" in bad["error"]["message"]
        wrong = post(url, "add_block", {"blockType": "motion_fly"})
        assert wrong["success"] is False and wrong["error"]["code"] == "INVALID_TYPE"
        assert post(url, "add_block", {"blockType": "motion_movesteps"})["success"] is True
        seen = post(url, "get_blocks_pseudocode")
        assert seen["success"] is True
        assert seen["data"]["pseudocode"].startswith("#1 [top] motion_movesteps\n")
        missing = post(url, "delete_block", {"blockIndex": 9})
        assert missing["success"] is False and missing["error"]["code"] == "NOT_FOUND"
        assert post(url, "delete_block", {"blockIndex": 1})["success"] is True
        assert post(url, "get_blocks_pseudocode")["data"]["pseudocode"] == ""
    finally:
        requests.delete(f"{served.url}/sessions/{sid}", timeout=20)


def test_composite_latency_over_http_and_in_process(served) -> None:
    """A set_block_field over HTTP and the same call on the worker both succeed (prints both
    medians; speed is measured by the benchmarks, never asserted in a test)."""
    require_checkout()
    sid = runner_setup(served.url, TASK, "default.sb3")
    url = f"{served.url}/sessions/{sid}"
    try:
        assert post(url, "add_block", {"blockType": "motion_movesteps"})["success"] is True
        assert post(url, "get_blocks_pseudocode")["success"] is True
        args = {"blockIndex": 1, "fieldName": "STEPS"}
        http = []
        for i in range(15):
            started = time.perf_counter()
            assert post(url, "set_block_field", {**args, "value": i})["success"] is True
            http.append(time.perf_counter() - started)
        session = served.table.get(sid)
        state = CompositeState(idx_to_block=dict(session.composite.idx_to_block))

        def in_process(value: int) -> float:
            req = CompositeRequest(api="set_block_field", args={**args, "value": value})
            started = time.perf_counter()
            assert composite_execute(session.page, sid, req, False, state)["success"] is True
            return time.perf_counter() - started

        local = [session.worker.submit(lambda v=i: in_process(v)).result() for i in range(15)]
        http_ms, local_ms = statistics.median(http) * 1000, statistics.median(local) * 1000
        print(f"composite set_block_field median: HTTP {http_ms:.1f} ms, in process {local_ms:.1f} ms")  # fmt: skip
        assert http_ms > 0 and local_ms > 0  # the speed figure is the benchmark's
    finally:
        requests.delete(f"{served.url}/sessions/{sid}", timeout=20)


def their_pseudocode_source() -> str:
    """Their common.js and get_blocks_pseudocode.js, read from the checkout, in our wrapper."""
    api = require_checkout() / "scratch-bench-api" / "api"
    wrapper = (Path(__file__).parent / "js" / "their_pseudocode.js").read_text()
    common = (api / "api_utils" / "common.js").read_text()
    script = (api / "api_scripts" / "get_blocks_pseudocode.js").read_text().strip()
    return wrapper.replace("/*COMMON*/", common).replace("/*SCRIPT*/", script)


@pytest.mark.parametrize(
    "project", ["calculate_gcd_golden.sb3", "ask_and_echo_golden.sb3", "bouncing_cat_golden.sb3"]
)
def test_the_pseudocode_equals_their_scripts(served, project) -> None:
    """Their own generator, run in the same page, prints the same text, numbers and names."""
    source = their_pseudocode_source()
    sid = runner_setup(served.url, TASK, project)
    try:
        ours = post(f"{served.url}/sessions/{sid}", "get_blocks_pseudocode")["data"]
        session = served.table.get(sid)
        out = session.worker.submit(lambda: session.page.bridge.page_custom_js(source)).result()
        assert out["ok"], out
        theirs = out["value"]
        assert theirs.get("success") is True, theirs
        assert ours["pseudocode"] == theirs["pseudocode"]
        assert ours["pseudocode"].count("#") >= 4
        for key in ("targetName", "targetId", "availableTargets", "targetVariables",
                    "targetLists", "availableChoices", "valueToIdMappings"):  # fmt: skip
            assert ours[key] == theirs[key], key
        assert {i: (b["id"], b["opcode"]) for i, b in ours["idxToBlock"].items()} == {
            i: (b["id"], b["opcode"]) for i, b in theirs["idxToBlock"].items()
        }
    finally:
        requests.delete(f"{served.url}/sessions/{sid}", timeout=20)
