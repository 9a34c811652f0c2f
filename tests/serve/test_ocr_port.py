"""``scratch-gym serve --ocr-port``: ScratchWorld's OCR server (their ``ocr_server/main.py``)
answered by scratch-gym's PaddleOCR, on a real uvicorn server with one warm engine for the module:
the routes and their shapes on screenshots with known text, the confidence filter, the 400s,
the guard; their own client's ``_ocr_detect`` and element fusion, in their client's venv; and the
CLI starting both servers and stopping them together."""

from __future__ import annotations

import importlib.util
import io
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest
import requests
from PIL import Image, ImageDraw, ImageFont

from scratch_gym.ocr import missing_packages
from tests.serve.conftest import FIXTURE, free_port, require_checkout
from tests.serve.test_their_runner import require_client_venv
from tests.shared_data import REPO_ROOT

MISSING = missing_packages("paddleocr") + [
    m for m in ("python_multipart",) if importlib.util.find_spec(m) is None
]
pytestmark = pytest.mark.skipif(
    bool(MISSING), reason=f"the ocr and serve extras are needed (missing {', '.join(MISSING)})"
)
TOKEN = "s3cret-token-123"
# text, where it is drawn, and their element_type for it ("Looks" holds "ok": a button, as theirs)
LINES = [
    ("Cancel", (100, 100), "button"),
    ("Name:", (100, 220), "label"),
    ("hello world", (500, 330), "text"),
    ("Looks", (900, 480), "button"),
]


def known_text() -> tuple[Image.Image, dict[str, tuple[int, int, int, int]]]:
    """A 1280x720 screenshot-sized image holding :data:`LINES`, and each line's ink box."""
    image = Image.new("RGB", (1280, 720), (249, 249, 249))
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=28)
    ink = {}
    for text, xy, _ in LINES:
        draw.text(xy, text, fill=(40, 40, 40), font=font)
        ink[text] = tuple(int(v) for v in draw.textbbox(xy, text, font=font))
    return image, ink


def png(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, "PNG")
    return buf.getvalue()


@pytest.fixture(scope="module")
def ocr_url() -> Iterator[str]:
    """The OCR app on a real uvicorn server in a thread; its engine loads once, at startup."""
    import uvicorn

    from scratch_gym.serve.ocr_app import create_ocr_app

    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_ocr_app(port=port), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        assert thread.is_alive(), "the OCR server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(60)


def detect(url: str, data: bytes, content_type: str = "image/png", **form) -> requests.Response:
    files = {"file": ("screenshot.png", io.BytesIO(data), content_type)}
    return requests.post(f"{url}/ocr/detect", files=files, data=form, timeout=60)


def test_detect_reads_known_text_with_their_fields_and_element_types(ocr_url) -> None:
    image, ink = known_text()
    response = detect(ocr_url, png(image))
    assert response.status_code == 200, response.text
    body = response.json()
    assert set(body) == {"success", "elements", "total_elements", "error"}
    assert body["success"] is True and body["error"] is None
    assert body["total_elements"] == len(body["elements"])
    by_text = {e["text"]: e for e in body["elements"]}
    for text, _, element_type in LINES:
        assert text in by_text, body["elements"]
        found = by_text[text]
        assert set(found) == {"text", "confidence", "x", "y", "width", "height", "element_type"}
        assert all(type(found[k]) is int for k in ("x", "y", "width", "height"))
        assert found["element_type"] == element_type
        assert 0.5 <= found["confidence"] <= 1.0
        x0, y0, x1, y1 = ink[text]  # the box holds the drawn ink, give or take a few pixels
        assert abs(found["x"] - x0) <= 8 and abs(found["y"] - y0) <= 8, (found, ink[text])
        assert abs(found["x"] + found["width"] - x1) <= 8, (found, ink[text])
        assert abs(found["y"] + found["height"] - y1) <= 8, (found, ink[text])
    rows = [(e["y"], e["x"]) for e in body["elements"]]
    assert rows == sorted(rows)  # reading order: top to bottom, then left to right


@pytest.mark.parametrize("mode", ["RGBA", "L"])
def test_other_image_modes_read_the_same(ocr_url, mode: str) -> None:
    image, _ = known_text()
    want = {e["text"] for e in detect(ocr_url, png(image)).json()["elements"]}
    got = detect(ocr_url, png(image.convert(mode))).json()
    assert got["success"] is True and {e["text"] for e in got["elements"]} == want


def test_confidence_filters_the_lines(ocr_url) -> None:
    data = png(known_text()[0])
    every = detect(ocr_url, data, confidence="0").json()["elements"]
    scores = sorted({e["confidence"] for e in every})
    assert len(scores) >= 3, every
    threshold = scores[len(scores) // 2]
    kept = detect(ocr_url, data, confidence=str(threshold)).json()
    assert kept["elements"] == [e for e in every if e["confidence"] >= threshold]
    assert 0 < kept["total_elements"] < len(every)
    default = detect(ocr_url, data).json()["elements"]  # their default: 0.5
    assert default == [e for e in every if e["confidence"] >= 0.5]
    none = detect(ocr_url, data, confidence="1.01").json()
    assert none == {"success": True, "elements": [], "total_elements": 0, "error": None}


@pytest.mark.parametrize(
    ("data", "content_type", "message"),
    [
        (b"just some text", "text/plain", "File must be an image"),
        (b"", "image/png", "Empty image file"),
        (b"\x89PNG not really a png", "image/png", "not a readable image"),
    ],
)
def test_a_non_image_or_an_empty_file_is_400(ocr_url, data, content_type, message) -> None:
    response = detect(ocr_url, data, content_type)
    assert response.status_code == 400
    assert message in response.json()["detail"]


def test_a_malformed_form_is_422(ocr_url) -> None:
    assert requests.post(f"{ocr_url}/ocr/detect", data={"confidence": "0.5"}).status_code == 422
    assert detect(ocr_url, png(Image.new("RGB", (8, 8))), confidence="high").status_code == 422


def test_health_and_info(ocr_url) -> None:
    health = requests.get(f"{ocr_url}/health", timeout=10).json()
    assert health["status"] == "healthy" and health["ocr_backend"] == "PaddleOCR"
    info = requests.get(f"{ocr_url}/info", timeout=10).json()
    assert info["server_port"] == int(ocr_url.rsplit(":", 1)[1])


def test_every_route_needs_the_token_and_bodies_are_capped() -> None:
    """The guard answers first: no lifespan, so no engine loads."""
    from fastapi.testclient import TestClient

    from scratch_gym.serve.ocr_app import create_ocr_app

    client = TestClient(create_ocr_app(token=TOKEN, max_body_bytes=5000))
    files = {"file": ("s.txt", b"text", "text/plain")}
    for method, path in [("GET", "/health"), ("GET", "/info"), ("POST", "/ocr/detect")]:
        assert client.request(method, path).status_code == 401
        wrong = {"Authorization": "Bearer nope-nope-nope"}
        assert client.request(method, path, headers=wrong).status_code == 401
    auth = {"Authorization": f"Bearer {TOKEN}"}
    assert client.get("/health", headers=auth).status_code == 200
    assert client.post("/ocr/detect", files=files, headers=auth).status_code == 400  # not an image
    big = {"file": ("s.png", b"x" * 6000, "image/png")}
    assert client.post("/ocr/detect", files=big, headers=auth).status_code == 413


def test_a_huge_image_is_refused_before_decoding() -> None:
    from scratch_gym.serve.ocr_app import BadImage, decode_image

    with pytest.raises(BadImage, match="at most 100 pixels"):
        decode_image(png(Image.new("RGB", (20, 20))), max_pixels=100)


def test_a_real_editor_screenshot(ocr_url, fresh_editor) -> None:
    response = detect(ocr_url, fresh_editor.screenshot_png())
    assert response.status_code == 200
    found = {e["text"]: e for e in response.json()["elements"]}
    for category in ("Motion", "Looks", "Sound", "Events", "Control"):
        assert category in found, sorted(found)
        assert found[category]["x"] < 80  # the category menu, at the left edge
    assert found["Looks"]["element_type"] == "button"  # their rule: "Looks" holds "ok"


THEIR_CALLS = """
import json, sys
sys.path.insert(0, sys.argv[1])
from scratchbench.core.agent_client import ScratchAgentEnvironment
env = ScratchAgentEnvironment(api_url="http://127.0.0.1:9", mode="primitive", enable_ocr=True,
                              ocr_server_url=sys.argv[2], documents_config={})
data = open(sys.argv[3], "rb").read()
default, strict = env._ocr_detect(data), env._ocr_detect(data, confidence=1.01)
fused = env.element_fusion.fuse_elements([], default["elements"])
print(json.dumps({"default": default, "strict": strict, "fused": fused}))
"""


def test_their_client_reads_our_ocr_and_fuses_it(ocr_url, tmp_path) -> None:
    """Their unmodified ``ScratchAgentEnvironment._ocr_detect`` and ``ElementFusion``, in their
    client's venv (their primitive mode's OCR half)."""
    checkout = require_checkout()
    python = require_client_venv()
    image, _ = known_text()
    shot = tmp_path / "shot.png"
    image.save(shot)
    run = subprocess.run(
        [str(python), "-c", THEIR_CALLS, str(checkout), ocr_url, str(shot)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["default"]["success"] is True
    assert {t for t, _, _ in LINES} <= {e["text"] for e in out["default"]["elements"]}
    assert out["strict"]["total_elements"] == 0
    assert [e["text"] for e in out["fused"]] == [e["text"] for e in out["default"]["elements"]]
    assert all(e["type"] == "text" and "bbox" in e for e in out["fused"])


def test_cli_refuses_the_main_port_for_ocr(capsys) -> None:
    from scratch_gym.cli import main

    code = main(["serve", "--scratchworld", str(FIXTURE), "--port", "9100", "--ocr-port", "9100"])
    assert code == 2
    assert "--ocr-port 9100 is the service's --port" in capsys.readouterr().err


def test_cli_says_when_the_ocr_port_is_taken(capsys) -> None:
    from scratch_gym.cli import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        args = ["serve", "--scratchworld", str(FIXTURE), "--port", str(free_port())]
        code = main([*args, "--ocr-port", str(port)])
    assert code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


def _answers(url: str) -> bool:
    try:
        return requests.get(url, timeout=5).status_code == 200
    except requests.ConnectionError:
        return False


@pytest.mark.browser
@pytest.mark.slow
def test_serve_with_ocr_port_starts_both_and_they_stop_together() -> None:
    port, ocr_port = free_port(), free_port()
    cmd = [sys.executable, "-m", "scratch_gym", "serve", "--scratchworld", str(FIXTURE),
           "--port", str(port), "--ocr-port", str(ocr_port)]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        main, ocr = f"http://127.0.0.1:{port}/", f"http://127.0.0.1:{ocr_port}/health"
        deadline = time.monotonic() + 180
        while not (_answers(main) and _answers(ocr)):
            assert proc.poll() is None, proc.stdout.read().decode()[-3000:]
            assert time.monotonic() < deadline, "serve --ocr-port did not answer on both ports"
            time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(120) == 0, proc.stdout.read().decode()[-3000:]
        assert not _answers(main) and not _answers(ocr)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)
