"""The NL2Scratch generation protocols of ``scratch-gym eval``, against a local OpenAI-compatible
test endpoint (a scripted stand-in for the remote model) and the real editor: the paper protocol
(one greedy plain-text generation of at most 384 tokens, retrieved examples, bootstrap intervals),
sampled candidates with log-probabilities that the selection strategies score, and the
environment and the judge scoring a program alike."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from scratch_gym.cli import main
from tests.agents.chat_server import ChatServer

ITEMS = [
    {"key": "k1", "nl": "When the green flag is clicked, move 10 steps.",
     "pseudocode": ["when @greenFlag clicked", "move (10) steps"]},
    {"key": "k2", "nl": "When space is pressed, say Hello! for 2 seconds.",
     "pseudocode": ["when (space v) key pressed", "say [Hello!] for (2) seconds"]},
    {"key": "k3", "nl": "When this sprite is clicked, hide.",
     "pseudocode": ["when this sprite clicked", "hide"]},
]  # fmt: skip
# what the scripted model writes: k1 in the spelling that only post-processing repairs
WRITTEN = {
    "k1": "when green flag clicked\nmove (10) steps",
    "k2": "when (space v) key pressed\nsay [Hello!] for (2) seconds",
    "k3": "when this sprite clicked\nhide",
}
WRONG = "when this sprite clicked\nturn right (90) degrees"


@pytest.fixture
def refs(tmp_path: Path) -> Path:
    path = tmp_path / "refs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in ITEMS))
    return path


def asked_key(body: dict) -> str:
    """The item whose description the request asks to translate (the last one in the prompt)."""
    query = re.findall(r"Description: (.*)\nProgram:", body["messages"][-1]["content"])[-1]
    return next(r["key"] for r in ITEMS if r["nl"] == query)


def run_eval(capsys, *argv: str) -> tuple[int, str, dict]:
    code = main(["eval", "--suite", "nl2scratch", "--agent", "llm", "--model", "scripted",
                 "--no-progress", "--json", *argv])  # fmt: skip
    captured = capsys.readouterr()
    lines = captured.out.strip().splitlines()
    return code, captured.out + captured.err, json.loads(lines[-1]) if code == 0 else {}


@pytest.mark.browser
def test_paper_protocol_one_greedy_plain_text_generation_with_retrieved_examples(
    tmp_path, refs, capsys
):
    results = tmp_path / "paper.jsonl"
    with ChatServer(lambda body: (200, WRITTEN[asked_key(body)])) as server:
        code, out, summary = run_eval(
            capsys, "--references", str(refs), "--base-url", server.base_url, "--protocol",
            "paper", "--shots", "2", "--examples", str(refs), "--results", str(results),
        )  # fmt: skip
        requests = server.requests
    assert code == 0, out
    assert len(requests) == 3  # one generation per item, no retry
    for body in requests:
        assert body["max_tokens"] == 384 and body["temperature"] == 0.0
        assert "n" not in body and "logprobs" not in body and "response_format" not in body
        prompt = body["messages"][-1]["content"]
        own = next(r["nl"] for r in ITEMS if r["key"] == asked_key(body))
        assert prompt.count("Description: ") == 3 and prompt.count(own) == 1  # 2 shots + query
        assert "JSON" not in body["messages"][0]["content"]
    records = [json.loads(line) for line in results.read_text().splitlines()]
    for r in records:
        assert r["protocol"] == "paper" and r["shots"] == 2 and r["steps"] == 1
        assert len(r["retrieved"]) == 2 and r["item_key"] not in r["retrieved"]
    # post-processed as the published scorer does: "when green flag clicked" is repaired
    assert [r["em"] for r in records] == [1.0, 1.0, 1.0]
    assert "generation protocol paper" in out and "1 attempt, plain-text reply" in out
    assert re.search(r"100\.0 \[100\.0, 100\.0\]", out)  # value with its bootstrap interval
    assert summary["protocol"] == "paper" and summary["em"] == 1.0
    assert summary["ci95"]["em"] == [1.0, 1.0] and summary["bootstrap"]["samples"] == 1000


def logprob_choice(index: int, text: str, logprobs: list[float]) -> dict:
    """A choice in the chat-completions format, with one log-prob per (made-up) token."""
    content = [{"token": f"t{i}", "logprob": v, "top_logprobs": []} for i, v in enumerate(logprobs)]
    return {
        "index": index,
        "message": {"role": "assistant", "content": text},
        "logprobs": {"content": content},
    }


@pytest.mark.browser
def test_sampled_candidates_are_written_for_the_selection_strategies(tmp_path, refs, capsys):
    def script(body: dict) -> tuple[int, list[dict]]:
        right = WRITTEN[asked_key(body)]
        return 200, [
            logprob_choice(0, WRONG, [-0.5, -0.5]),  # first: wrong; highest total (-1.0)
            logprob_choice(1, right, [-0.2] * 12),  # highest mean (-0.2), total -2.4: right
            logprob_choice(2, WRONG + "\nhide", [-3.0, -1.0]),
        ]

    results = tmp_path / "sampled.jsonl"
    with ChatServer(script) as server:
        code, out, summary = run_eval(
            capsys, "--references", str(refs), "--base-url", server.base_url, "--protocol",
            "paper", "--samples", "3", "--temperature", "0.7", "--top-p", "0.9",
            "--results", str(results),
        )  # fmt: skip
        body = server.requests[0]
    assert code == 0, out
    assert body["n"] == 3 and body["logprobs"] is True
    assert body["temperature"] == 0.7 and body["top_p"] == 0.9 and body["max_tokens"] == 384
    candidates = Path(summary["candidates"])
    assert candidates == tmp_path / "sampled.candidates.jsonl"
    rows = [json.loads(line) for line in candidates.read_text().splitlines()]
    assert [r["key"] for r in rows] == ["k1", "k2", "k3"]
    means = [c["logprob_mean"] for c in rows[0]["candidates"]]
    assert means == pytest.approx([-0.5, -0.2, -2.0])  # length-normalised: mean per token
    assert summary["em"] == 0.0  # the first candidate is the one scored in the run
    # the existing scoring command reads the file and selects among the candidates
    code = main(["nl2scratch", "--references", str(refs), "--predictions", str(candidates),
                 "--select", "likelihood", "--json", "--bootstrap", "0", "--quiet"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0, out
    scored = json.loads(out.strip().splitlines()[-1])
    assert "selection over candidates (scored: likelihood)" in out
    assert scored["em"] == 1.0 and scored["selection"]["first"]["em"] == 0.0  # by mean, not sum
    assert scored["selection"]["parse_likelihood"]["em"] == 1.0
    assert set(scored["selection"]) == {"first", "likelihood", "sac", "parse_likelihood",
                                        "parse_sac"}  # fmt: skip


def test_generation_options_are_checked_before_anything_runs(tmp_path, refs, capsys):
    bad = [
        (["--shots", "2"], "--shots applies to --protocol paper only, not retry"),
        (["--protocol", "paper", "--shots", "2"], "--shots K needs --examples JSONL"),
        (["--protocol", "paper", "--temperature", "0.7"], "generates greedily"),
        (["--protocol", "paper", "--samples", "8"], "needs --temperature above 0"),
        (["--protocol", "paper", "--top-p", "0.9"], "--top-p applies to sampling"),
    ]
    for argv, message in bad:
        code, out, _ = run_eval(capsys, "--references", str(refs), *argv,
                                "--results", str(tmp_path / "x.jsonl"))  # fmt: skip
        assert code == 2 and message in out, (argv, out)
    examples = tmp_path / "examples.jsonl"
    examples.write_text(
        json.dumps(ITEMS[0]) + "\n" + json.dumps({"key": "x", "nl": "Hide."}) + "\n"
    )
    code, out, _ = run_eval(capsys, "--references", str(refs), "--protocol", "paper", "--shots",
                            "1", "--examples", str(examples), "--results", str(tmp_path / "z.jsonl"))  # fmt: skip
    assert code == 2 and "examples line 2: missing pseudocode (has key, nl;" in out, out
    code, out, _ = run_eval(capsys, "--suite", "perception", "--protocol", "paper",
                            "--results", str(tmp_path / "y.jsonl"))  # fmt: skip
    assert code == 2 and "option --protocol does not apply to the perception suite" in out


@pytest.mark.browser
def test_the_environment_and_the_judge_score_a_program_alike():
    from scratch_gym.envs.program import ProgramEnv
    from scratch_gym.nl2scratch.episodes import score_program
    from scratch_gym.nl2scratch.items import ProgramItem
    from scratch_gym.nl2scratch.protocols import get_protocol
    from scratch_gym.suites import make_suite

    suite = make_suite("nl2scratch", protocol="paper")
    env = ProgramEnv(protocol="paper")
    try:
        nl, reference = ITEMS[0]["nl"], ITEMS[0]["pseudocode"]
        _, info = env.reset(options={"nl": nl, "reference": reference, "key": "k1"})
        assert info["protocol"] == "paper"
        _, reward, terminated, _, info = env.step(WRITTEN["k1"])
    finally:
        env.close()
    assert terminated and info["protocol"] == "paper" and info["sac_protocol"] == "paper"

    item = ProgramItem("nl2s-0000", nl, tuple(reference), key="k1")
    judged = suite.judge(item, info, WRITTEN["k1"])
    for name in ("em", "f1", "ps", "sac_nl", "sac_ref"):
        assert judged[name] == info[name], name
    assert judged["protocol"] == "paper" and reward == info["sac_ref"] == 1.0
    # without the published post-processing the same program scores lower: it is applied
    raw = score_program(WRITTEN["k1"], nl, reference, get_protocol("paper", postprocess=False))
    assert raw["em"] == 0.0 and raw["sac_ref"] < 1.0


@pytest.mark.browser
def test_the_paper_protocol_gives_one_attempt_and_scores_a_program_that_does_not_load():
    from scratch_gym.envs.program import ProgramEnv

    env = ProgramEnv(protocol="paper")
    try:
        assert env.attempts == 1 and ProgramEnv().attempts == 3  # retry: today's default
        env.reset(options={"nl": ITEMS[2]["nl"], "reference": ITEMS[2]["pseudocode"]})
        program = "when this sprite clicked\nhide\nfly to the moon"
        _, reward, terminated, truncated, info = env.step(program)
    finally:
        env.close()
    assert truncated and not terminated and reward == 0.0 and not info["parsed"]
    assert info["ps"] == 0.0 and 0.0 < info["f1"] < 1.0 and info["protocol"] == "paper"


def test_chat_choices_carry_their_mean_token_log_probability():
    from scratch_gym.agents.chat_client import ChatClient

    payload = {
        "choices": [
            logprob_choice(0, "a", [-1.0, -2.0, -3.0]),
            {"message": {"content": "b"}, "logprobs": {"token_logprobs": [-0.5, None, -1.5]}},
            {"message": {"content": "c"}},
        ]
    }
    reply = ChatClient._reply(payload, 1, 0.0)
    assert reply.text == "a"
    assert [(c.text, c.logprob_mean, c.tokens) for c in reply.choices] == [
        ("a", -2.0, 3),
        ("b", -1.0, 2),
        ("c", None, None),
    ]
