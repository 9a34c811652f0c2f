"""The LLM agent acts in the one-step suites too, through the one runner over real HTTP: it answers
perception questions and writes NL2Scratch programs from replies of a scripted local server."""

from __future__ import annotations

import json

import pytest

from scratch_gym.runner import AgentSpec, run_suite
from scratch_gym.suites import make_suite
from tests.agents.chat_server import ChatServer

PROGRAM = ["when @greenFlag clicked", "move (10) steps"]


def llm(server: ChatServer, mode: str) -> AgentSpec:
    return AgentSpec("llm", mode, {"base_url": server.base_url, "model": "scripted"})


def reply(payload: dict) -> str:
    return f"Analysis: the scripted reply.\n{json.dumps(payload)}"


@pytest.mark.browser
def test_llm_agent_answers_perception_questions(tmp_path):
    asked: list[str] = []

    def script(body):
        asked.append(json.dumps(body["messages"][-1]["content"]))
        return 200, reply({"answer": "yes"})

    with ChatServer(script) as server:
        records = run_suite(
            llm(server, "perception"),
            suite=make_suite("perception", screens=1),
            results=tmp_path / "p.jsonl",
            progress=False,
        )
    assert len(records) == 3 and all(r["status"] in ("success", "failure") for r in records)
    assert all("Question" in text and "image_url" in text for text in asked)  # text + screenshot
    assert {r["question"] for r in records} == {"connection", "existence", "field"}


@pytest.mark.browser
def test_llm_agent_writes_nl2scratch_programs(tmp_path):
    corpus = tmp_path / "refs.jsonl"
    corpus.write_text(json.dumps({"key": "k", "nl": "Move 10 steps.", "pseudocode": PROGRAM}))
    with ChatServer(lambda body: (200, reply({"program": "\n".join(PROGRAM)}))) as server:
        (record,) = run_suite(
            llm(server, "nl2scratch"),
            suite=make_suite("nl2scratch", references=str(corpus)),
            results=tmp_path / "n.jsonl",
            progress=False,
        )
    assert record["status"] == "success" and record["em"] == 1.0 and record["parsed"]
