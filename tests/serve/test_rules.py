"""The service's rules that need no browser: options, the guard (token, body cap), names inside
the checkout, key aliases and the selector mapping."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from scratch_gym.serve.config import ConfigError, ServeConfig
from scratch_gym.serve.elements import elements_batch, parse_selectors
from scratch_gym.serve.keys import normalize_key, unknown_key
from scratch_gym.serve.projects import BadName, NotThere, project_path, script_path
from tests.serve.conftest import FIXTURE

TOKEN = "s3cret-token-123"


def test_other_host_requires_a_token() -> None:
    with pytest.raises(ConfigError, match="--token"):
        ServeConfig(scratchworld=FIXTURE, host="0.0.0.0")
    ServeConfig(scratchworld=FIXTURE, host="0.0.0.0", token=TOKEN)
    assert ServeConfig(scratchworld=FIXTURE).host == "127.0.0.1"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"token": "short"}, "at least 8"),
        ({"time": "fast"}, "--time"),
        ({"parallel": 0}, "--parallel"),
        ({"max_sessions": 0}, "--max-sessions"),
    ],
)
def test_bad_options_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        ServeConfig(scratchworld=FIXTURE, **kwargs)


def test_not_a_checkout(tmp_path) -> None:
    with pytest.raises(FileNotFoundError, match="not a ScratchWorld checkout"):
        ServeConfig(scratchworld=tmp_path)


def test_cli_refuses_a_public_host_without_token(capsys) -> None:
    from scratch_gym.cli import main

    code = main(["serve", "--scratchworld", str(FIXTURE), "--host", "0.0.0.0"])
    assert code == 2
    assert capsys.readouterr().err.startswith("error: serve: --host 0.0.0.0 is not loopback")


def guarded_client(**kwargs) -> TestClient:
    """The app without its lifespan (no workers, no browser): the guard answers first."""
    from scratch_gym.serve.app import create_app

    config = ServeConfig(scratchworld=FIXTURE, **kwargs)
    return TestClient(create_app(config))


def test_every_route_needs_the_bearer_token() -> None:
    client = guarded_client(host="0.0.0.0", token=TOKEN)
    for method, path in [("GET", "/"), ("POST", "/sessions"), ("GET", "/sessions/x/screenshot")]:
        assert client.request(method, path).status_code == 401
        wrong = client.request(method, path, headers={"Authorization": "Bearer nope-nope-nope"})
        assert wrong.status_code == 401
    assert client.get("/", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200


def test_request_bodies_are_capped() -> None:
    client = guarded_client(max_body_bytes=1000)
    refused = client.post("/sessions/x/type", json={"text": "a" * 5000})
    assert refused.status_code == 413
    assert client.post("/sessions/x/type", json={"text": "a"}).status_code == 404  # no session


def test_streamed_body_over_the_cap_is_refused() -> None:
    client = guarded_client(max_body_bytes=1000)
    chunks = (b"x" * 600 for _ in range(3))  # no Content-Length: chunked
    assert client.post("/sessions/x/type", content=chunks).status_code == 413


@pytest.mark.parametrize("name", ["../tasks/create/greet_and_move.json", "a/b.sb3", "..sb3",
                                  "/etc/passwd", "greet_and_move.json", ".hidden.sb3"])  # fmt: skip
def test_project_names_stay_inside_the_static_folder(name: str) -> None:
    with pytest.raises(BadName):
        project_path(FIXTURE, name)


def test_project_and_script_names() -> None:
    assert project_path(FIXTURE, "greet_and_move.sb3").is_file()
    assert script_path(FIXTURE, "greet_and_move").name == "greet_and_move.js"
    with pytest.raises(NotThere):
        project_path(FIXTURE, "missing.sb3")
    with pytest.raises(BadName):
        script_path(FIXTURE, "../api/main")


def test_key_aliases() -> None:
    assert [normalize_key(k) for k in ("ctrl", "CMD", "esc", "pgdn", "arrow_left", "f5", "a")] == [
        "Control", "Meta", "Escape", "PageDown", "ArrowLeft", "F5", "a"]  # fmt: skip
    assert unknown_key("Enter") is None
    assert unknown_key("bogus") == 'Unknown key: "bogus"'


def test_selectors_map_onto_the_element_list() -> None:
    ours = [
        {"type": "stage", "text": "", "x": 10.4, "y": 20.6, "w": 480, "h": 360},
        {"type": "block", "text": "move 10 steps", "opcode": "motion_movesteps",
         "block_id": "a!b", "x": 1, "y": 2, "w": 3, "h": 4},
        {"type": "flyout_block", "text": "say Hello!", "opcode": "looks_say",
         "block_id": "looks_say", "x": 1, "y": 2, "w": 3, "h": 4},
        {"type": "input", "text": "10", "opcode": "motion_movesteps", "block_id": "a!b",
         "x": 1, "y": 2, "w": 3, "h": 4},
        {"type": "input", "text": "Sprite1", "label": "Name", "x": 1, "y": 2, "w": 3, "h": 4},
    ]  # fmt: skip
    out = elements_batch(ours, "blocks::.blocklyDraggable,stage::[data-testid='stage'],"
                               "inputs::input,odd::.unknown-thing")  # fmt: skip
    els = out["elements"]
    assert [e["index"] for e in els] == [0, 1, 2, 3]
    assert [e["type"] for e in els] == ["blocks", "blocks", "stage", "inputs"]
    assert [e.get("block_name") for e in els[:2]] == ["motion_movesteps on canvas", "looks_say"]
    assert els[2]["position"] == {"x": 10, "y": 21, "width": 480, "height": 360}
    assert els[3]["text"] == "Name value: Sprite1"
    assert out["total_selectors"] == 4 and out["unmapped"] == ["odd::.unknown-thing"]
    assert parse_selectors("a::x, y") == [("a", "x"), ("y", "y")]
