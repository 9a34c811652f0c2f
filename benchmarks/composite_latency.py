"""Median latency of each composite action kind, observation included (ScratchWorld-Composite-v0).

Each round resets the environment and builds a small program with every action kind (as an
agent would), timing ``env.step`` (parse, edit in the editor, settle, text observation). Steps do
not wait for paint, so the editor may still be laying out and painting when one returns; the
"until idle" column adds the time until the page answers its next call (minus that call's own
median cost), which is what back-to-back steps pay. Target switches and new variables leave the
flyout's rebuild for later (bridge/toolbox.js): the first ``add_block`` after one pays it (its
p90), and so does ``render()``, timed after each round's target switch next to a render with
nothing pending. Prints a table of medians and 90th percentiles per kind; the last line is one
JSON object with ``composite_action_ms_p50`` (the slowest kind's median step), each kind's
median, ``composite_until_idle_ms_p50``, ``render_after_switch_ms_p50`` and ``render_ms_p50``.

    python benchmarks/composite_latency.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from typing import Any

import gymnasium as gym

import scratch_gym  # noqa: F401
from scratch_gym.program.numbering import number_blocks


def _index(env: Any, block_id: str) -> int:
    blocks = env.unwrapped.page.call("composite.blocks")["blocks"]
    return number_blocks(blocks).index_of(block_id)


def _time_call(page: Any) -> float:
    t0 = time.perf_counter()
    page.call("project.summary")
    return (time.perf_counter() - t0) * 1000


def one_round(
    env: Any,
    times: dict[str, list[float]],
    idle: dict[str, list[float]],
    renders: dict[str, list[float]],
) -> None:
    env.reset()
    page = env.unwrapped.page
    ids: list[str] = []

    def step(kind: str, api: str, **args: Any) -> None:
        before = set(page.call("composite.blocks")["blocks"])
        t0 = time.perf_counter()
        obs, *_ = env.step({"api": api, "args": args})
        times[kind].append((time.perf_counter() - t0) * 1000)
        page.call("project.summary")  # waits for whatever the editor still does
        idle[kind].append((time.perf_counter() - t0) * 1000)
        if obs["last_action_error"]:
            raise RuntimeError(f"{api} {args}: {obs['last_action_error']}")
        new = [
            i
            for i, b in page.call("composite.blocks")["blocks"].items()
            if i not in before and not b["shadow"]
        ]
        ids.extend(new)

    step("add_variable", "add_variable", name="score")
    step("add_list", "add_list", name="log", scope="sprite")
    step("add_block", "add_block", opcode="event_whenflagclicked")
    hat = ids[-1]
    step("add_block", "add_block", opcode="control_repeat")
    loop = ids[-1]
    step("add_block", "add_block", opcode="motion_movesteps")
    move = ids[-1]
    step("add_block", "add_block", opcode="data_changevariableby", variable="score")
    change = ids[-1]
    step("add_block", "add_block", opcode="operator_add")
    add = ids[-1]
    step("add_block", "add_block", opcode="control_forever")
    forever = ids[-1]
    step("connect_blocks", "connect_blocks", source=_index(env, loop), target=_index(env, hat),
         placement="stack_after")  # fmt: skip
    step("connect_blocks", "connect_blocks", source=_index(env, move), target=_index(env, loop),
         placement="statement_into")  # fmt: skip
    step("connect_blocks", "connect_blocks", source=_index(env, change), target=_index(env, move),
         placement="stack_after")  # fmt: skip
    step("connect_blocks", "connect_blocks", source=_index(env, add), target=_index(env, move),
         placement="value_into", input="STEPS")  # fmt: skip
    step("set_block_field", "set_block_field", index=_index(env, add), field="NUM1", value=3)
    step("set_block_field", "set_block_field", index=_index(env, loop), field="TIMES", value=4)
    step("connect_blocks", "connect_blocks", source=_index(env, forever),
         target=_index(env, change), placement="wrap")  # fmt: skip
    step("detach_blocks", "detach_blocks", index=_index(env, forever))
    step("delete_block", "delete_block", index=_index(env, forever))
    step("run_project", "run_project")
    step("stop_project", "stop_project")
    step("select_stage", "select_stage")
    step("select_sprite", "select_sprite", name="Sprite1")
    for kind in ("render after switch", "render (nothing pending)"):
        t0 = time.perf_counter()
        env.render()
        renders[kind].append((time.perf_counter() - t0) * 1000)
    t0 = time.perf_counter()
    obs, *_ = env.step({"api": "delete_block", "args": {"index": 99}})
    times["invalid (error)"].append((time.perf_counter() - t0) * 1000)
    assert obs["last_action_error"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    env = gym.make("ScratchWorld-Composite-v0", render_mode="rgb_array")
    times: dict[str, list[float]] = defaultdict(list)
    idle: dict[str, list[float]] = defaultdict(list)
    renders: dict[str, list[float]] = defaultdict(list)
    try:
        one_round(env, defaultdict(list), defaultdict(list), defaultdict(list))  # warm-up
        for _ in range(args.rounds):
            one_round(env, times, idle, renders)
        call_ms = statistics.median(_time_call(env.unwrapped.page) for _ in range(20))
    finally:
        env.close()
    medians = {k: statistics.median(v) for k, v in times.items()}
    until_idle = {k: statistics.median(v) - call_ms for k, v in idle.items()}
    print(f"{'action kind':<18} {'n':>4} {'p50 ms':>8} {'p90 ms':>8} {'until idle p50':>15}")
    for kind, values in times.items():
        p90 = statistics.quantiles(values, n=10)[-1] if len(values) > 1 else values[0]
        print(
            f"{kind:<18} {len(values):>4} {medians[kind]:>8.1f} {p90:>8.1f} "
            f"{until_idle.get(kind, float('nan')):>15.1f}"
        )
    for kind, values in renders.items():
        print(f"{kind:<26} {statistics.median(values):>8.1f} ms (p50)")
    edits = {k: v for k, v in medians.items() if k != "invalid (error)"}
    slowest = max(edits, key=edits.get)
    print(f"slowest kind: {slowest} (target <= 150 ms per action, observation included)")
    summary = {
        "composite_action_ms_p50": round(edits[slowest], 1),
        "slowest_kind": slowest,
        "composite_until_idle_ms_p50": round(max(until_idle[k] for k in edits), 1),
        "render_after_switch_ms_p50": round(statistics.median(renders["render after switch"]), 1),
        "render_ms_p50": round(statistics.median(renders["render (nothing pending)"]), 1),
    }
    summary.update({f"{k.replace(' ', '_').replace('(', '').replace(')', '')}_ms_p50": round(v, 1)
                    for k, v in medians.items()})  # fmt: skip
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
