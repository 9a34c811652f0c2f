"""The LLM agent over real HTTP against a scripted local OpenAI-compatible server.

The server's replies are computed from block geometry by the oracle on the same editor page,
written in 0-1000 normalised coordinates; the first reply is unparseable and the second request
gets HTTP 500. The agent must recover from both and solve the task.
"""

from __future__ import annotations

import base64
import io
import json

from PIL import Image

from scratch_gym.agents.coords import Coordinates
from scratch_gym.agents.factory import make_agent
from scratch_gym.agents.primitive_oracle import PrimitiveOracleAgent
from scratch_gym.tasks import load_task
from tests.agents.chat_server import ChatServer, garbage_then_500_then
from tests.agents.conftest import TASK


def _scripted(planned: list, coords: Coordinates):
    """Replies: garbage, HTTP 500, then the oracle's planned actions (computed in the main
    thread, which alone may touch the page) in model coordinates."""

    def reply(body: dict) -> str:
        said = dict(planned[-1])
        for key in ("start", "end"):
            if key in said:
                said[key] = [round(v, 2) for v in coords.to_model(*said[key])]
        return f"Analysis: next step of the plan.\n```json\n{json.dumps(said)}\n```"

    return garbage_then_500_then("Analysis: I think I should drag the say block somewhere.", reply)


def test_llm_agent_solves_a_task_over_http(primitive_env, monkeypatch):
    monkeypatch.setenv("SG_TEST_KEY", "sk-secret-123")
    task = load_task(TASK)
    coords = Coordinates("norm1000")
    oracle = PrimitiveOracleAgent()
    oracle.bind(primitive_env)
    planned: list = []
    with ChatServer(_scripted(planned, coords)) as server:
        agent = make_agent(
            "llm",
            "primitive",
            base_url=server.base_url,
            model="scripted",
            api_key_env="SG_TEST_KEY",
            coords="norm1000",
            backoff_s=0.05,
        )
        assert "sk-secret" not in repr(agent.client)
        obs, info = primitive_env.reset(options={"task": TASK})
        agent.reset(task)
        oracle.reset(task)
        steps = 0
        terminated = truncated = False
        while not (terminated or truncated):
            planned.append(oracle.act(obs, info))
            action = agent.act(obs, info)
            obs, _, terminated, truncated, info = primitive_env.step(action)
            steps += 1
    assert info["success"] and info["psr"] == 1.0
    assert terminated and not truncated
    # 1 unparseable + 1 HTTP 500 + one reply per step
    assert len(server.requests) == steps + 2
    retry = server.requests[1]["messages"]  # the unparseable reply went back with its error
    assert retry[-2]["role"] == "assistant" and "drag the say block" in retry[-2]["content"]
    assert "could not be parsed" in retry[-1]["content"]
    assert server.requests[2]["messages"] == retry  # the same request again after the 500
    assert all(h["Authorization"] == "Bearer sk-secret-123" for h in server.headers)
    # the screenshot travels as a PNG data URL of the full screen (norm1000 convention)
    image = server.requests[-1]["messages"][1]["content"][1]["image_url"]["url"]
    assert image.startswith("data:image/png;base64,")
    png = Image.open(io.BytesIO(base64.b64decode(image.split(",", 1)[1])))
    assert png.size == (1280, 720)
    # history of recent steps in the prompt, token usage in info
    assert "## Your recent steps" in server.requests[-1]["messages"][1]["content"][0]["text"]
    assert agent.info["usage_total"]["total_tokens"] == 1050 * (steps + 1)
    assert agent.info["usage"]["total_tokens"] == 1050
