"""``scratch-gym serve`` against the real editor: sessions, observations, actions, projects and
evaluation over HTTP, every refusal with the request it refuses, and two workers in parallel."""

from __future__ import annotations

import base64
import io
import json
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from PIL import Image

from tests.helpers import frame_loop_runs

pytestmark = pytest.mark.browser

THEIR_SELECTORS = (
    "stage::[data-testid='stage'],canvas::.blocklyMainBackground,inputs::input,"
    "sprites::.sprite-selector_sprite-wrapper_df7cJ,blocks::.blocklyDraggable,"
    "flyout_buttons::.blocklyFlyoutButton,category_menu_item::.scratchCategoryMenuItem"
)


@pytest.fixture
def client(served):
    with httpx.Client(base_url=served.url, timeout=120) as c:
        yield c


@pytest.fixture
def session(client):
    """A session, deleted afterwards; its URL prefix."""
    started = time.perf_counter()
    r = client.post("/sessions", params={"record": True, "task_name": "t"})
    assert r.status_code == 200, r.text
    assert time.perf_counter() - started < 20  # their client's timeout
    sid = r.json()["session_id"]
    yield f"/sessions/{sid}"
    client.delete(f"/sessions/{sid}")


def project(served) -> str:
    return "default.sb3" if served.shared else "greet_and_move.sb3"


def test_index(client) -> None:
    assert "message" in client.get("/").json()


def test_screenshot_is_a_1280x720_png(client, session) -> None:
    body = client.get(f"{session}/screenshot", params={"format": "base64"}).json()
    assert body["format"] == "base64"
    with Image.open(io.BytesIO(base64.b64decode(body["screenshot"]))) as img:
        assert (img.format, img.size) == ("PNG", (1280, 720))
    assert client.get(f"{session}/screenshot", params={"format": "file"}).status_code == 400


def test_elements_batch_answers_their_selectors(client, served, session) -> None:
    assert client.post(
        f"{session}/load_project", params={"project_name": project(served)}
    ).is_success
    assert client.post(f"{session}/toggle_stage").json()["success"] is True
    out = client.get(f"{session}/elements_batch", params={"selectors": THEIR_SELECTORS}).json()
    els = out["elements"]
    assert out["total_selectors"] == 7 and "unmapped" not in out
    assert [e["index"] for e in els] == list(range(len(els)))
    kinds = {e["type"] for e in els}
    assert {"stage", "canvas", "inputs", "sprites", "blocks", "category_menu_item"} <= kinds
    for e in els:
        assert all(isinstance(v, int) for v in e["position"].values())
    stage = next(e for e in els if e["type"] == "stage")
    assert (stage["position"]["width"], stage["position"]["height"]) == (240, 180)  # small stage
    palette = [e["block_name"] for e in els if e["type"] == "blocks"]
    assert "motion_movesteps" in palette


def test_a_drag_from_the_palette_makes_a_canvas_block(client, session, served) -> None:
    client.post(f"{session}/load_project", params={"project_name": project(served)})
    els = client.get(
        f"{session}/elements_batch", params={"selectors": "blocks::.blocklyDraggable"}
    ).json()["elements"]
    move = next(e for e in els if e["block_name"] == "motion_movesteps")
    p = move["position"]
    start = (p["x"] + 10, p["y"] + p["height"] // 2)
    r = client.post(f"{session}/drag_and_drop", json={"start_x": start[0], "start_y": start[1],
                                                     "end_x": 500, "end_y": 300}).json()  # fmt: skip
    assert r["success"] is True and r["executed_action"]["args"]["duration"] == 0.5
    els = client.get(
        f"{session}/elements_batch", params={"selectors": "blocks::.blocklyDraggable"}
    ).json()["elements"]
    assert "motion_movesteps on canvas" in [e["block_name"] for e in els]


def test_mouse_and_keyboard_envelopes(client, session) -> None:
    for button in ("left", "right", "middle"):
        r = client.post(f"{session}/click", json={"x": 700, "y": 30, "button": button}).json()
        assert r["success"] is True, r
        assert set(r) == {"success", "requested_action", "executed_action", "data", "error", "meta"}
        assert r["meta"]["session_id"] == session.rsplit("/", 1)[1]
    client.post(f"{session}/key", json={"key": "esc"})
    bad = client.post(f"{session}/click", json={"x": 1, "y": 1, "button": "fourth"}).json()
    assert bad["success"] is False and bad["error"]["code"] == "INVALID_ARG"
    assert client.post(f"{session}/double_click", json={"x": 700, "y": 30}).json()["success"]
    assert client.post(f"{session}/move_to", json={"x": 10, "y": 10, "duration": 0}).json()[
        "success"
    ]
    assert client.post(
        f"{session}/scroll", json={"direction": "down", "amount": 50, "x": 400, "y": 300}
    ).json()["success"]
    assert (
        client.post(f"{session}/scroll", json={"direction": "sideways"}).json()["error"]["code"]
        == "INVALID_ARG"
    )
    assert client.post(f"{session}/type", json={"text": "hi"}).json()["success"]
    key = client.post(f"{session}/key", json={"key": "ESC"}).json()
    assert key["executed_action"]["args"] == {"key": "Escape"}
    assert (
        client.post(f"{session}/key", json={"key": "nokey"}).json()["error"]["code"]
        == "INVALID_ARG"
    )
    assert client.post(f"{session}/hold_key", json={"key": "shift"}).json()["success"]
    assert client.post(f"{session}/release_key", json={"key": "shift"}).json()["success"]
    hot = client.post(f"{session}/hotkey", json={"keys": ["ctrl", "z"]}).json()
    assert hot["executed_action"]["args"]["keys"] == ["Control", "z"]
    assert (
        client.post(f"{session}/hotkey", json={"keys": []}).json()["error"]["code"] == "INVALID_ARG"
    )


def test_malformed_requests_get_422_and_leave_other_sessions_alone(client, session) -> None:
    other = client.post("/sessions").json()["session_id"]
    try:
        assert client.post(f"{session}/click", json={"x": "left"}).status_code == 422
        assert client.post(f"{session}/click", content=b"{not json").status_code == 422
        assert client.post(f"{session}/drag_and_drop", json={"start_x": 1}).status_code == 422
        assert client.post(f"{session}/evaluate", json={}).status_code == 422
        assert client.get(f"{session}/elements_batch", params={"selectors": ","}).status_code == 400
        ok = client.post(f"/sessions/{other}/click", json={"x": 700, "y": 30}).json()
        assert ok["success"] is True
        assert client.get(f"{session}/screenshot").status_code == 200
    finally:
        client.delete(f"/sessions/{other}")


def test_unknown_session_is_404(client) -> None:
    assert client.post("/sessions/nope/click", json={"x": 1, "y": 1}).status_code == 404
    assert client.delete("/sessions/nope").status_code == 404


@pytest.mark.parametrize("name", ["../../README.md", "../static/default.sb3", "x/../default.sb3",
                                  "%2e%2e/secret.sb3"])  # fmt: skip
def test_load_project_refuses_names_outside_the_static_folder(client, session, name) -> None:
    r = client.post(f"{session}/load_project", params={"project_name": name})
    assert r.status_code == 400, r.text


def test_load_project_missing_is_404(client, session) -> None:
    r = client.post(f"{session}/load_project", params={"project_name": "no_such_project.sb3"})
    assert r.status_code == 404


def test_custom_js_is_refused_without_allow_js(client, session) -> None:
    body = {"api": "custom_js", "args": {"fn": "({vm}) => vm.runtime.targets.length"}}
    r = client.post(f"{session}/composite/execute", json=body)
    assert r.status_code == 403 and "--allow-js" in r.text


def test_evaluate_task_names_stay_inside_the_scripts_folder(client, session) -> None:
    for name in ("../main", "../../task_runner", "a/b"):
        r = client.post(
            f"{session}/evaluate", json={"task_name": name, "evaluation_method": "browser"}
        )
        assert r.status_code == 400, r.text
    r = client.post(f"{session}/evaluate", json={"task_name": "x", "evaluation_method": "node"})
    assert r.status_code == 400


def test_session_cap_answers_429(client, served) -> None:
    opened = []
    try:
        while len(opened) < served.table.max_sessions:
            r = client.post("/sessions")
            assert r.status_code == 200
            opened.append(r.json()["session_id"])
        assert client.post("/sessions").status_code == 429
        assert client.get("/sessions/count").json()["available_sessions"] == 0
    finally:
        for sid in opened:
            client.delete(f"/sessions/{sid}")


def test_idle_sessions_expire(client, served) -> None:
    sid = client.post("/sessions").json()["session_id"]
    table = served.table
    ttl = table.ttl_s
    try:
        table.ttl_s = 0.2
        time.sleep(0.5)
        assert client.get(f"/sessions/{sid}").status_code == 404
    finally:
        table.ttl_s = ttl
        client.delete(f"/sessions/{sid}")
    assert sid not in client.get("/sessions").json()


def test_export_project_is_a_real_sb3(client, session, served) -> None:
    client.post(f"{session}/load_project", params={"project_name": project(served)})
    out = client.post(f"{session}/export_project", params={"output_name": "out.sb3"}).json()
    data = base64.b64decode(out["data_base64"])
    assert out["status"] == "success" and out["filename"] == "out.sb3" and out["size"] == len(data)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert "project.json" in z.namelist()


def test_two_workers_serve_two_sessions_at_once(client, served) -> None:
    """--parallel 2: two sessions land on different worker threads and are served concurrently."""
    sids = [client.post("/sessions").json()["session_id"] for _ in range(2)]
    try:
        workers = {served.table.get(s).worker.name for s in sids}
        assert len(workers) == 2

        def shots(sid: str) -> int:
            with httpx.Client(base_url=served.url, timeout=60) as c:
                return sum(
                    c.get(f"/sessions/{sid}/screenshot").status_code == 200 for _ in range(5)
                )

        with ThreadPoolExecutor(2) as executor:
            assert list(executor.map(shots, sids)) == [5, 5]
    finally:
        for sid in sids:
            client.delete(f"/sessions/{sid}")


def test_the_oracle_channel_reads_a_session_and_nothing_else(client, served, session) -> None:
    sid = session.rsplit("/", 1)[1]
    assert client.get("/oracle/sessions").json()[sid]["project"] is None
    assert client.post(f"{session}/load_project", params={"project_name": project(served)}).status_code == 200  # fmt: skip
    assert client.get("/oracle/sessions").json()[sid]["project"] == project(served)
    r = client.post(f"{session}/oracle/call", json={"name": "composite.blocks"})
    assert r.status_code == 200 and "blocks" in r.json()["value"], r.text
    targets = client.post(f"{session}/oracle/call", json={"name": "project.json"}).json()
    assert json.loads(targets["value"])["targets"][0]["isStage"] is True  # the page's text
    for name in ("page.customJs", "project.load", "editor.settle"):  # not reads: refused
        assert client.post(f"{session}/oracle/call", json={"name": name}).status_code == 400


def test_the_oracle_channel_is_refused_without_its_flag() -> None:
    from fastapi.testclient import TestClient

    from scratch_gym.serve.app import create_app
    from scratch_gym.serve.config import ServeConfig
    from tests.serve.conftest import FIXTURE

    app = create_app(ServeConfig(scratchworld=FIXTURE)).app  # no lifespan: no browser starts
    c = TestClient(app)
    assert c.get("/oracle/sessions").status_code == 403
    r = c.post("/sessions/x/oracle/call", json={"name": "composite.blocks"})
    assert r.status_code == 403 and "--oracle-channel" in r.text


def test_a_workers_warm_page_rests_and_a_new_session_runs_its_frame_loop(client, served) -> None:
    """While it waits, a worker's warm page has its VM's frame loop stopped (an idle editor
    redraws its stage 30 times a second otherwise); a session gets a page whose loop runs, as a
    new page's does (their client's scripts need it)."""
    worker = served.table.workers[0]
    deadline = time.monotonic() + 120
    while not worker.warm:
        assert time.monotonic() < deadline, f"{worker.name} loaded no warm page in 120 s"
        time.sleep(0.2)
    assert worker.submit(lambda: frame_loop_runs(worker._warm.page)).result(60) is False
    sid = client.post("/sessions").json()["session_id"]
    try:
        session = served.table.get(sid)
        runs = session.worker.submit(lambda: frame_loop_runs(session.page.page))
        assert runs.result(60) is True
    finally:
        client.delete(f"/sessions/{sid}")
