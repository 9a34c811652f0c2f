"""The NL2Scratch generation protocols end to end against a scripted local endpoint.

    python benchmarks/nl2scratch_scripted_endpoint.py [--shared ../shared] [--limit 20] [--out DIR]

Serves an OpenAI-compatible chat-completions endpoint on 127.0.0.1 whose "model" is a script, not
an LLM: it copies the program of the first in-context example of the prompt (the nearest one), or
writes a fixed two-line program when the prompt has none; with ``n`` > 1 it returns the programs
of the first ``n`` examples with made-up token log-probabilities (lower for later ones); under
the retry protocol it wraps the program in the JSON reply that protocol asks for. Then it runs
``scratch-gym eval --suite nl2scratch`` on the first ``--limit`` items of the 800 set under the
retry protocol, the paper protocol 0-shot, 20-shot (the 800 items as leave-one-out examples) and
20-shot with 8 samples, and scores the written candidates with ``scratch-gym nl2scratch``. The
numbers show the machinery, not a model.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from scratch_gym.cli import main

REPO = Path(__file__).resolve().parents[1]
FALLBACK = "when green flag clicked\nsay [Hello!] for (2) seconds"
EXAMPLE = re.compile(r"Description: .*?\nProgram:\n(.*?)(?=\n\nDescription: |\n\nNow the )", re.S)


def programs_in(prompt: str) -> list[str]:
    """The example programs of a paper-protocol prompt, nearest first."""
    return EXAMPLE.findall(prompt)


def choices(body: dict[str, Any]) -> list[dict[str, Any]]:
    prompt = body["messages"][-1]["content"]
    if isinstance(prompt, list):  # the retry agent's content parts
        prompt = " ".join(p.get("text", "") for p in prompt if isinstance(p, dict))
    found = programs_in(prompt) or [FALLBACK]
    n = int(body.get("n", 1))
    out = []
    for i in range(n):
        text = found[i % len(found)]
        if "JSON" in body["messages"][0]["content"]:
            text = "Analysis: scripted.\n" + json.dumps({"program": text})
        choice: dict[str, Any] = {"index": i, "message": {"role": "assistant", "content": text}}
        if body.get("logprobs"):
            tokens = text.split()
            choice["logprobs"] = {
                "content": [{"token": t, "logprob": -0.1 * (i + 1)} for t in tokens]
            }
        out.append(choice)
    return out


class Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        data = json.dumps({"object": "chat.completion", "choices": choices(body)}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:
        pass


def main_(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", default=str(REPO.parent / "shared"))
    parser.add_argument("--limit", type=int, default=20)
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    data = Path(args.shared) / "data" / "nl2scratch" / "test_sac_primary_subset_800.jsonl"
    out = Path(args.out or tempfile.mkdtemp(prefix="nl2scratch-protocols-"))
    out.mkdir(parents=True, exist_ok=True)
    refs = out / "refs.jsonl"
    refs.write_text("".join(data.read_text(encoding="utf-8").splitlines(True)[: args.limit]))
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    common = ["eval", "--suite", "nl2scratch", "--agent", "llm", "--model", "scripted",
              "--base-url", f"http://127.0.0.1:{server.server_address[1]}/v1",
              "--references", str(refs), "--no-progress"]  # fmt: skip
    runs = {
        "retry": [],
        "paper-0shot": ["--protocol", "paper"],
        "paper-20shot": ["--protocol", "paper", "--shots", "20", "--examples", str(data)],
        "paper-20shot-8samples": ["--protocol", "paper", "--shots", "20", "--examples", str(data),
                                  "--samples", "8", "--temperature", "0.7", "--top-p", "0.9"],
    }  # fmt: skip
    try:
        for name, extra in runs.items():
            print(f"\n$ scratch-gym {' '.join(common[:5])} ... {' '.join(extra)}")
            results = out / f"{name}.jsonl"
            argv_ = [*common, *extra, "--label", name, "--results", str(results)]
            if main(argv_) != 0:
                return 1
        candidates = out / "paper-20shot-8samples.candidates.jsonl"
        print(f"\n$ scratch-gym nl2scratch --references {refs} --predictions {candidates}")
        return main(["nl2scratch", "--references", str(refs), "--predictions", str(candidates),
                     "--select", "likelihood", "--quiet"])  # fmt: skip
    finally:
        server.shutdown()


if __name__ == "__main__":
    raise SystemExit(main_())
