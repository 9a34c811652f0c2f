"""The LLM agent in composite mode over real HTTP: a scripted local server replies with the
composite oracle's actions after one unparseable reply and one HTTP 500; the agent recovers from
both and the episode builds the golden program."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest

from scratch_gym.agents.composite_oracle import CompositeOracleAgent
from scratch_gym.agents.factory import make_agent
from scratch_gym.tasks import load_task
from tests.agents.chat_server import ChatServer, garbage_then_500_then

TASK = "say-hello"


@pytest.mark.browser
def test_llm_agent_solves_a_composite_task_over_http():
    env = gym.make("ScratchWorld-Composite-v0", reward_mode="sparse")
    task = load_task(TASK)
    oracle = CompositeOracleAgent()
    oracle.bind(env)
    planned: list = []
    script = garbage_then_500_then(
        "Analysis: add a say block. add_block(looks_say)",
        lambda body: f"Analysis: the next edit.\n```json\n{json.dumps(planned[-1])}\n```",
    )

    try:
        with ChatServer(script) as server:
            agent = make_agent(
                "llm", "composite", base_url=server.base_url, model="scripted", backoff_s=0.05
            )
            obs, info = env.reset(options={"task": TASK})
            agent.reset(task)
            oracle.reset(task)
            steps = 0
            terminated = truncated = False
            while not (terminated or truncated):
                planned.append(oracle.act(obs, info))
                obs, _, terminated, truncated, info = env.step(agent.act(obs, info))
                steps += 1
    finally:
        env.close()
    assert info["success"] and info["psr"] == 1.0 and terminated and not truncated
    assert len(server.requests) == steps + 2  # 1 unparseable + 1 HTTP 500 + one per step
    last = server.requests[-1]["messages"][-1]["content"][0]["text"]
    assert "## Pseudocode" in last and "when @greenFlag clicked" in last, last[:400]
    retry = server.requests[1]["messages"]
    assert "could not be parsed" in retry[-1]["content"]
    assert server.requests[2]["messages"] == retry  # the same request again after the 500
