"""What a researcher sees when the model or its endpoint fails: a malformed reply in composite mode
gets a composite retry hint and is reported once, as its step's error, and stored in the results
record with the raw reply; ``eval`` counts parse failures per agent and prints the first message
of each error kind and the results file; an unreachable endpoint exits 1 (every episode failed for
infrastructure reasons). Real HTTP, real editor, the real ``scratch-gym eval``."""

from __future__ import annotations

import json

import pytest

from scratch_gym.agents.factory import make_agent
from scratch_gym.agents.parsing import ReplyParseError, parse_reply
from scratch_gym.agents.prompts import action_example
from scratch_gym.cli import main
from tests.agents.chat_server import ChatServer

GARBAGE = "Analysis: I would add a say block, add_block(looks_say)."
DONE = 'Analysis: finished.\n{"api": "done", "args": {}}'


def _text(message: dict) -> str:
    content = message["content"]
    return content if isinstance(content, str) else content[0]["text"]


def test_the_retry_hint_is_an_action_of_the_current_mode():
    with pytest.raises(ReplyParseError) as composite:
        parse_reply(GARBAGE, action_example("composite"))
    assert '"api": "add_block"' in str(composite.value) and "action_type" not in str(
        composite.value
    )
    with pytest.raises(ReplyParseError) as primitive:
        parse_reply(GARBAGE, action_example("primitive"))
    assert '"action_type": "drag"' in str(primitive.value)


def test_a_parse_failure_is_reported_once_as_its_steps_error():
    replies = iter([GARBAGE, GARBAGE, DONE])
    with ChatServer(lambda body: (200, next(replies))) as server:
        agent = make_agent("llm", "composite", base_url=server.base_url, model="scripted")
        agent.reset()
        obs = {"instruction": "Say hello.", "pseudocode": "(empty)", "last_action_error": ""}
        placeholder = agent.act(obs, {})
        assert agent.info["parse_error"].startswith("your reply could not be parsed: no JSON")
        assert agent.info["reply"] == GARBAGE
        # the environment refuses the placeholder; that refusal is not a second error
        refused = {**obs, "last_action_error": f"unknown api {placeholder['api']!r}"}
        assert agent.act(refused, {"last_action_error": refused["last_action_error"]}) == {
            "api": "done",
            "args": {},
        }
        assert agent.info["parse_error"] == ""
    retry = _text(server.requests[1]["messages"][-1])
    assert "could not be parsed" in retry and '"api": "add_block"' in retry
    assert "action_type" not in retry
    prompt = _text(server.requests[2]["messages"][1])
    assert prompt.count("could not be parsed") == 1, prompt
    assert "unknown api" not in prompt and "unparseable" not in prompt, prompt


@pytest.mark.browser
def test_eval_stores_and_counts_parse_failures(tmp_path, capsys):
    with ChatServer(lambda body: (200, GARBAGE)) as server:
        code = main(["eval", "--agent", "llm", "--mode", "composite", "--tasks", "say-hello",
                     "--max-steps", "2", "--base-url", server.base_url, "--no-progress",
                     "--results", str(tmp_path / "r.jsonl"), "--json"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    record = json.loads((tmp_path / "r.jsonl").read_text())
    assert record["status"] == "failure" and record["steps"] == 2
    assert record["parse_failures"] == 2 and record["action_errors"] == 0
    assert record["parse_errors"][0]["reply"] == GARBAGE
    assert record["parse_errors"][0]["error"].startswith("your reply could not be parsed")
    assert "parse failures (llm): 2 replies in 1 episodes could not be parsed" in out
    assert f"results: {tmp_path / 'r.jsonl'} (1 episodes)" in out
    assert json.loads(out.strip().splitlines()[-1])["parse_failures"] == {"llm": 2}


@pytest.mark.browser
def test_eval_against_an_unreachable_endpoint_says_why_and_exits_1(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    code = main(["eval", "--agent", "llm", "--tasks", "say-hello", "--base-url",
                 "http://127.0.0.1:9/v1", "--max-retries", "0", "--no-progress",
                 "--results", str(tmp_path / "r.jsonl")])  # fmt: skip
    captured = capsys.readouterr()
    assert code == 1
    assert "infrastructure errors: 1 of 1 episodes; first (say-hello): chat endpoint failed" in (
        captured.out
    )
    assert "Connection refused" in captured.out or "ConnectionRefusedError" in captured.out
    assert f"results: {tmp_path / 'r.jsonl'}" in captured.out
    assert "warning" not in captured.err  # not the public endpoint
    # the public default without a key: one warning line first (here the run stops at a typo)
    assert main(["eval", "--agent", "llm", "--categories", "creat"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[0].startswith("warning: the llm agent calls the public endpoint")
    assert "$OPENAI_API_KEY is unset" in err[0] and err[1].startswith(
        "error: unknown category 'creat' (did you mean 'create'?)"
    )
