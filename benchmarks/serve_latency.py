"""A composite action over HTTP (``scratch-gym serve``) against the same call in process.

    PYTHONPATH=. python benchmarks/serve_latency.py --scratchworld ../shared/data/scratchworld \\
        [--rounds 30]

One service (``--parallel 1``), one session on their ``default.sb3`` with a ``motion_movesteps``
block. Each round times every kind twice, interleaved: a ``POST .../composite/execute`` with
``requests`` (what their client does: JSON in, the envelope out), and the same request handed
to the session's worker thread in this process (``serve.composite.execute``: the page work
without HTTP, routing and JSON). Kinds: ``set_block_field``, ``get_blocks_pseudocode`` and
``add_block`` (the new block is deleted again after each, untimed). Prints each kind's
medians and their difference; the last line is one JSON object: per kind
``<kind>_http_ms_p50``, ``<kind>_in_process_ms_p50``; ``composite_http_ms_p50`` and
``composite_in_process_ms_p50`` (``set_block_field``'s, the figure the target names) and
``composite_http_overhead_ms_p50`` (the largest difference of medians over the kinds).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from scratchworld_dropin import start_serve  # noqa: E402

from scratch_gym.records.text import json_line, table  # noqa: E402
from scratch_gym.serve.composite import CompositeState  # noqa: E402
from scratch_gym.serve.composite import execute as composite_execute  # noqa: E402
from scratch_gym.serve.request_bodies import CompositeRequest  # noqa: E402

KINDS = ("set_block_field", "get_blocks_pseudocode", "add_block")


def over_http(url: str, api: str, args: dict[str, Any]) -> dict[str, Any]:
    answer = requests.post(f"{url}/composite/execute", json={"api": api, "args": args}, timeout=60)
    answer.raise_for_status()
    body = answer.json()
    if body.get("success") is not True:
        raise RuntimeError(f"{api} failed over HTTP: {body.get('error')}")
    return body


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scratchworld", type=Path, default=ROOT.parent / "shared" / "data" / "scratchworld")  # fmt: skip
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    if not (args.scratchworld / "task_runner.py").is_file():
        sys.exit(f"no ScratchWorld checkout at {args.scratchworld} (--scratchworld PATH)")
    server, thread, base = start_serve(args.scratchworld.resolve(), 1)
    times: dict[str, dict[str, list[float]]] = {k: {"http": [], "local": []} for k in KINDS}
    try:
        sid = requests.post(f"{base}/sessions", timeout=20).json()["session_id"]
        url = f"{base}/sessions/{sid}"
        requests.post(f"{url}/load_project", params={"project_name": "default.sb3"}, timeout=60).raise_for_status()  # fmt: skip
        over_http(url, "add_block", {"blockType": "motion_movesteps"})
        over_http(url, "get_blocks_pseudocode", {})
        session = server.config.app.app.state.table.get(sid)  # inside the Guard
        state = CompositeState(idx_to_block=dict(session.composite.idx_to_block))

        def in_process(api: str, call_args: dict[str, Any]) -> dict[str, Any]:
            request = CompositeRequest(api=api, args=call_args)
            body = session.worker.submit(
                lambda: composite_execute(session.page, sid, request, False, state)
            ).result()
            if body.get("success") is not True:
                raise RuntimeError(f"{api} failed in process: {body.get('error')}")
            return body

        def call(way: str, api: str, call_args: dict[str, Any]) -> dict[str, Any]:
            return over_http(url, api, call_args) if way == "http" else in_process(api, call_args)

        def timed(way: str, kind: str, value: int) -> None:
            started = time.perf_counter()
            if kind == "set_block_field":
                call(way, kind, {"blockIndex": 1, "fieldName": "STEPS", "value": value})
            elif kind == "get_blocks_pseudocode":
                call(way, kind, {})
            else:
                made = call(way, "add_block", {"blockType": "looks_show"})["data"]["blockId"]
            times[kind][way].append((time.perf_counter() - started) * 1000)
            if kind == "add_block":  # take the new block away again (not timed)
                index = call(way, "get_blocks_pseudocode", {})["data"]["idxToBlock"]
                (number,) = [i for i, b in index.items() if b["id"] == made]
                call(way, "delete_block", {"blockIndex": int(number)})
                call(way, "get_blocks_pseudocode", {})

        for i in range(args.rounds):
            for kind in KINDS:
                for way in ("http", "local") if i % 2 == 0 else ("local", "http"):
                    timed(way, kind, i)
        requests.delete(url, timeout=20)
    finally:
        server.should_exit = True
        thread.join(60)
    figures: dict[str, Any] = {}
    rows = []
    overheads = []
    for kind in KINDS:
        http = statistics.median(times[kind]["http"])
        local = statistics.median(times[kind]["local"])
        overheads.append(http - local)
        figures[f"{kind}_http_ms_p50"] = round(http, 1)
        figures[f"{kind}_in_process_ms_p50"] = round(local, 1)
        rows.append([kind, f"{http:.1f}", f"{local:.1f}", f"{http - local:+.1f}"])
    print(f"composite actions, {args.rounds} rounds (medians, ms)")
    print(table(["kind", "HTTP", "in process", "difference"], rows))
    figures["composite_http_ms_p50"] = figures["set_block_field_http_ms_p50"]
    figures["composite_in_process_ms_p50"] = figures["set_block_field_in_process_ms_p50"]
    figures["composite_http_overhead_ms_p50"] = round(max(overheads), 1)
    figures["rounds"] = args.rounds
    print(json_line(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
