"""ScratchWorld's own, unmodified Single-Step Drag runner (``run_single_step_drag_benchmark.py
--api-port PORT``) against ``scratch-gym serve`` and the scripted endpoint's drag oracle, in their
client's virtualenv: serve sets each task's view as scratch-gym imports it, the endpoint answers
the oracle's drag, and their own connection check records the verdict."""

from __future__ import annotations

import json
import time
from urllib.parse import urlparse

import pytest
import requests

from scratch_gym.program.projects import project_json
from scratch_gym.serve.composite import _with_ids
from scratch_gym.serve.dropin import run_drag_runner
from scratch_gym.serve.scripted_drag import DRAG_MARK, DragPlayer, DragTaskUnknown, drag_reply
from scratch_gym.serve.scripted_endpoint import ScriptedEndpoint
from scratch_gym.serve.scripted_primitive import RemoteChannel, their_action
from scratch_gym.serve.verdicts import Run, agreement, judge
from tests.serve.conftest import WAIT_CAP_S, require_checkout
from tests.serve.test_their_client import runner_setup
from tests.serve.test_their_runner import require_client_venv
from tests.shared_data import require_shared

# a canvas block above a stack (T1), a palette variable into an input of another sprite (T2)
TASKS = ["T1_001", "T2_025"]


def test_the_reply_is_in_their_drag_format():
    text = drag_reply("T1_001", (540, 285), (655, 300))
    assert "drag(start_point='<point>540 285</point>', end_point='<point>655 300</point>')" in text


def test_structure_lines_carry_their_ids():
    text = "#1 [top] event_whenflagclicked\n- field X: 1\n  #2 looks_say\n"
    idx = {"1": {"id": "a"}, "2": {"id": "b"}}
    assert _with_ids(text, idx) == (
        "#1 [top] event_whenflagclicked [ID: a]\n- field X: 1\n  #2 looks_say [ID: b]\n"
    )


def test_the_drag_task_is_the_one_the_prompt_quotes():
    checkout = require_checkout()
    require_shared(checkout / "single_step_drag_benchmark" / "tasks" / "T1_001.json")
    player = DragPlayer(checkout)
    task = json.loads((checkout / "single_step_drag_benchmark/tasks/T2_025.json").read_text())
    system = f"You are an AI assistant ... Your task is: {task['instruction']}\n\n{DRAG_MARK}."
    name, ours = player.task_of(system)
    assert name == "T2_025" and ours.id == "scratchworld-T2_025"
    with pytest.raises(DragTaskUnknown):
        player.task_of(f"Your task is: drag nothing\n\n{DRAG_MARK}.")


@pytest.mark.browser
def test_a_drag_tasks_workspace_state_sets_scratch_gyms_view(served):
    checkout = require_checkout()
    task = require_shared(checkout / "single_step_drag_benchmark" / "tasks" / "T1_011.json")
    cfg = json.loads(task.read_text())["evaluation_config"]
    state = cfg["workspace_state"]
    call = {"api": "custom_js", "args": {"fn": "({ws}) => 1", "payload": state}}
    sid = runner_setup(served.url, "T1_011", "T1_011.sb3")
    url = f"{served.url}/sessions/{sid}"
    try:
        answer = requests.post(f"{url}/composite/execute", json=call, timeout=60).json()
        assert answer["success"] is True, answer
        data = answer["data"]  # no --allow-js: scratch-gym's view, none of the client's JS
        assert data["task"] == "scratchworld-T1_011" and data["scale"] == pytest.approx(state["scale"])  # fmt: skip
        assert (data["tx"], data["ty"]) == pytest.approx((state["tx"], state["ty"]), abs=1)
        view = RemoteChannel(served.url, sid).bridge.view_state()  # the oracle channel
        assert view["scale"] == pytest.approx(state["scale"])
        body = {"api": "get_blocks_structure", "args": {}}
        structure = requests.post(f"{url}/composite/execute", json=body, timeout=60).json()
        blocks = structure["data"]["idToBlock"]
        ref = blocks[cfg["reference_block_id"]]
        project = project_json((checkout / "scratch-gui" / "static" / "T1_011.sb3").read_bytes())
        ours = [t["blocks"][ref["id"]] for t in project["targets"] if ref["id"] in t["blocks"]]
        assert ref["opcode"] == ours[0]["opcode"]  # (their file's reference_block_opcode errs)
        assert ref["next"] == ours[0]["next"] and ref["parent"] == ours[0]["parent"]
        assert {"parent", "next", "inputs", "fields", "screenBoundingBox"} <= set(ref)
        assert f"[ID: {ref['id']}]" in structure["data"]["pseudocode"]
    finally:
        requests.delete(url, timeout=20)
    sid = runner_setup(served.url, "say_hello", "default.sb3")  # not a drag task's project
    url = f"{served.url}/sessions/{sid}"
    try:
        assert requests.post(f"{url}/composite/execute", json=call, timeout=60).status_code == 403
    finally:
        requests.delete(url, timeout=20)


def _drop_into_the_if(served, cfg: dict, args: dict) -> bool:
    """On a fresh session set up as their drag runner sets T2_002 up: does ``args``'s
    drag_and_drop (through serve's route) put the palette's move block into the if's mouth?"""
    sid = runner_setup(served.url, "T2_002", "T2_002.sb3")
    url = f"{served.url}/sessions/{sid}"
    structure = {"api": "get_blocks_structure", "args": {}}
    view = {"api": "custom_js", "args": {"fn": "x", "payload": cfg["workspace_state"]}}
    try:
        for action in cfg["locate_target_actions"]:
            requests.post(f"{url}/{action['api']}", json=action["args"], timeout=60)
        assert requests.post(f"{url}/composite/execute", json=view, timeout=60).json()["success"]
        before = requests.post(f"{url}/composite/execute", json=structure, timeout=60).json()
        answer = requests.post(f"{url}/drag_and_drop", json=args, timeout=60).json()
        assert answer["success"] is True, answer
        for _ in range(50):  # the VM hears of the drop in Blockly's next event batch
            after = requests.post(f"{url}/composite/execute", json=structure, timeout=60).json()
            blocks = after["data"]["idToBlock"]
            new = [i for i in blocks if i not in before["data"]["idToBlock"]]
            if any(blocks[i]["opcode"] == "motion_movesteps" and blocks[i]["parent"] for i in new):
                break
            time.sleep(0.1)
    finally:
        requests.delete(url, timeout=20)
    mouth = blocks[cfg["reference_block_id"]]["inputs"]["SUBSTACK"]["block"]
    return any(blocks[i]["opcode"] == "motion_movesteps" and i == mouth for i in new)


@pytest.mark.browser
@pytest.mark.slow
def test_drags_answer_for_their_pointer_path(served):
    """Their route's drag is 15 short moves; the last ones pass within snap radius of the
    connection above T2_002's if, and its insertion marker keeps the drop there. The drag
    oracle's answer is replayed with their path first, so it drops into the if's mouth; the
    primitive endpoint's drags move in one step (``duration`` 0), as scratch-gym's own drag
    does not stop near the target either."""
    checkout = require_checkout()
    spec = require_shared(checkout / "single_step_drag_benchmark" / "tasks" / "T2_002.json")
    cfg = json.loads(spec.read_text())["evaluation_config"]
    player = DragPlayer(checkout)
    task = player.tasks()["T2_002"]
    (sx, sy), (ex, ey) = player.drag(task)  # checked with their path
    interior = task.regions.end.interior_point()  # feasible for scratch-gym's drag
    at = {"start_x": sx, "start_y": sy}
    ours = {**at, "end_x": round(interior[0]), "end_y": round(interior[1])}
    assert not _drop_into_the_if(served, cfg, ours)  # their path: above the if
    assert _drop_into_the_if(served, cfg, {**at, "end_x": ex, "end_y": ey})
    gesture = {"action_type": "drag", "start": [sx, sy], "end": list(interior)}
    (call,) = their_action(gesture)
    assert call["args"]["duration"] == 0
    assert _drop_into_the_if(served, cfg, call["args"])


@pytest.mark.browser
@pytest.mark.slow
def test_their_drag_runner_succeeds_with_the_drag_oracle(served, tmp_path):
    checkout = require_checkout()
    require_shared(checkout / "run_single_step_drag_benchmark.py")
    python = require_client_venv()
    port = urlparse(served.url).port
    with ScriptedEndpoint(checkout, serve_url=served.url) as endpoint:
        run = run_drag_runner(
            python, checkout, tmp_path, port, endpoint.base_url, TASKS, wait_cap_s=WAIT_CAP_S
        )
        drags = endpoint.drags
        oracle = {name: endpoint.drag.drag(endpoint.drag.tasks()[name]) for name in TASKS}
    assert run.returncode == 0, run.output[-4000:]
    assert drags == len(TASKS)
    for name in TASKS:
        result = run.result(name)
        assert result is not None, run.output[-4000:]
        (sx, sy), (ex, ey) = oracle[name]
        assert result["action"]["args"] == {"start_x": sx, "start_y": sy, "end_x": ex, "end_y": ey}
        assert result["execution_result"]["success"] is True
        assert result["evaluation_result"] is True, run.output[-4000:]
        assert result["success"] is True
        exported = run.result_dir / name / "1" / result["exported_file"]
        assert exported.read_bytes()[:2] == b"PK"
    summary = json.loads((run.result_dir / "summary.json").read_text())
    assert [r["success"] for r in summary["results"]] == [True] * len(TASKS)
    # scratch-gym's own verdict on the projects their runner exported agrees; the starting
    # projects fail it
    static = checkout / "scratch-gui" / "static"
    runs = [
        Run(
            "drag",
            name,
            "scripted",
            True,
            run.result_dir / name / "1" / run.result(name)["exported_file"],
        )  # fmt: skip
        for name in TASKS
    ] + [Run("drag", name, "start", False, static / f"{name}.sb3") for name in TASKS]
    judge(checkout, runs)
    assert [r.ours for r in runs] == [True, True, False, False] and agreement(runs) == 1.0
