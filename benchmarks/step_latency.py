"""Step latency and memory of ScratchWorld-Primitive-v0 in the real editor.

Measures (medians and 90th percentiles): environment creation cold (fresh process: browser launch
+ page load + first reset) and warm (browser already running), reset, one drag step including its
observation, one click step, and where a step's time goes (``info["step_phases_ms"]``: act,
settle, evaluate, observe, info); and the browser's memory per environment (PSS: (total with N
environments - browser alone) / N). Prints a table; the last line is one JSON object.

Where a drag step goes (measured on 6 December 2026, 2 idle cores): ``act`` is mostly the pointer
moves, one animation frame each (16.7 ms; Chromium holds a mouse move for the page's next frame,
while a press or a release takes about 1 ms). Since 7 December 2026 the drag is sent as raw
DevTools input (``EditorPage.drag_path``) whose press carries its own coordinates, so the hover
move before it is gone: four moves instead of five, ``act`` 94 -> 79 ms, with byte-equal
observations. Dropping intermediate moves as well (press, threshold move, end) measured 143 ms a
step, but Blockly picks its connection on every move (``drag_model``), so it would change which
drops connect: not done. Unbuffered input (the DevTools overlay's debugger mode) cut a move to 0.7
ms, but real drags then picked up a palette block differently from one run to the next near its
edges, so it is not used. ``settle`` waited for four frames after a drop until 7 December 2026:
Blockly hands a drop to the VM on a timer it starts in the next animation frame, and the VM's copy
of the blocks was part of what had to stay still, so the VM's change restarted the count a frame
late (and a -5.7e-14 px scroll jitter another). Now each frame is judged after that timer, the VM's
blocks are checked for agreement with the workspace instead of being fingerprinted, and scroll
offsets are rounded to 0.001 px: a drop settles in two frames (settle 59 -> 27-29 ms; the step 165
-> 132-148 ms in five runs, as the screenshot then took two frames in one run and three in four). A
step that deleted a block also waits for Blockly's shrinking copy of it to go (its animation
layer). Five oracle episodes (234 steps) gave the same screens as before, byte for byte, up to the
two steps where the old code also differed from itself between runs (a page's unseeded random
draws; since then seeded, bridge/random.js), and the same screens in two runs throughout. Earlier
tries that did not pay: stopping the VM's loop as soon as the drop reached it (three frames, no
less time); one still frame instead of two after the loop's last step (the next input then waited
longer for its frame). ``observe`` is the screenshot: a PNG capture over CDP takes two or three
frames by phase (33.5 or 50 ms; decoding it, 10 ms, fits inside them; WebP at quality 100 is no
faster, 33.2 ms), a JPEG one frame (16.7 ms) but it is lossy, so PNG stays.

    python benchmarks/step_latency.py [--repeats 20] [--cold-runs 3] [--envs 3]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

import gymnasium as gym
import numpy as np

import scratch_gym  # noqa: F401
from scratch_gym.agents.demo import block_box
from scratch_gym.cli.output import print_json_last, table
from scratch_gym.editor.browser import pss_mib, shared_session

COLD_SCRIPT = """
import json, time
t0 = time.perf_counter()
import gymnasium as gym, scratch_gym
env = gym.make("ScratchWorld-Primitive-v0")
env.reset()
print(json.dumps({"create_s": time.perf_counter() - t0}))
env.close()
"""


def stats(values: list[float]) -> tuple[float, float]:
    arr = np.asarray(values, dtype=float)
    return float(np.median(arr)), float(np.percentile(arr, 90))


def cold_creation(runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        res = subprocess.run(
            [sys.executable, "-c", COLD_SCRIPT], capture_output=True, text=True, check=True
        )
        out.append(json.loads(res.stdout.strip().splitlines()[-1])["create_s"])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--cold-runs", type=int, default=3)
    ap.add_argument("--envs", type=int, default=3, help="environments for the memory figure")
    args = ap.parse_args()

    cold = cold_creation(args.cold_runs)

    session = shared_session()
    session.acquire()  # keep the browser up between environments
    time.sleep(1.0)
    browser_alone = pss_mib(session.pids())

    warm, resets, drags, clicks = [], [], [], []
    phases: dict[str, list[dict[str, float]]] = {"drag": [], "click": []}
    env = None
    for i in range(3):
        t0 = time.perf_counter()
        env = gym.make("ScratchWorld-Primitive-v0")
        env.reset()
        warm.append(time.perf_counter() - t0)
        if i < 2:
            env.close()
    assert env is not None
    page = env.unwrapped.page
    env.reset()
    move = block_box(page, "motion_movesteps", in_flyout=True)
    env.step({"action_type": "drag", "start": [move["x"] + 8, move["y"] + 15], "end": [420, 200]})
    for i in range(args.repeats):
        placed = block_box(page, "motion_movesteps", in_flyout=False)
        target = [420 + 120 * (i % 2), 200 + 150 * (i % 3)]
        t0 = time.perf_counter()
        _, _, _, _, info = env.step(
            {"action_type": "drag", "start": [placed["x"] + 8, placed["y"] + 15], "end": target}
        )
        drags.append((time.perf_counter() - t0) * 1000)
        assert info["last_action_error"] == "", info["last_action_error"]
        phases["drag"].append(info["step_phases_ms"])
        t0 = time.perf_counter()
        _, _, _, _, info = env.step({"action_type": "click", "start": [600, 500 + (i % 2) * 50]})
        clicks.append((time.perf_counter() - t0) * 1000)
        phases["click"].append(info["step_phases_ms"])
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        env.reset()
        resets.append((time.perf_counter() - t0) * 1000)

    envs = [env] + [gym.make("ScratchWorld-Primitive-v0") for _ in range(args.envs - 1)]
    for e in envs[1:]:
        e.reset()
    time.sleep(1.0)
    total = pss_mib(session.pids())
    mem_per_env = (total - browser_alone) / len(envs)
    for e in envs:
        e.close()
    session.release()

    rows = []
    for name, values, unit in (
        ("create cold (fresh process)", cold, "s"),
        ("create warm (browser running)", warm, "s"),
        ("reset", resets, "ms"),
        ("drag step (with observation)", drags, "ms"),
        ("click step (with observation)", clicks, "ms"),
    ):
        p50, p90 = stats(values)
        rows.append((name, unit, f"{p50:.3f}" if unit == "s" else f"{p50:.0f}",
                     f"{p90:.3f}" if unit == "s" else f"{p90:.0f}", len(values)))  # fmt: skip
    print(table(["measure", "unit", "median", "p90", "n"], rows))
    names = list(phases["drag"][0])
    phases_ms = {
        step: {name: round(stats([p[name] for p in rows_of])[0], 1) for name in names}
        for step, rows_of in phases.items()
    }
    print()
    print(
        table(
            ["step (median ms)", *names], [(step, *ms.values()) for step, ms in phases_ms.items()]
        )
    )
    print(
        f"\nbrowser alone {browser_alone:.0f} MiB PSS; with {len(envs)} environments "
        f"{total:.0f} MiB; per environment {mem_per_env:.0f} MiB"
    )
    print_json_last(
        {
            "create_cold_s": stats(cold)[0],
            "create_warm_s": stats(warm)[0],
            "reset_ms_p50": stats(resets)[0],
            "reset_ms_p90": stats(resets)[1],
            "drag_step_ms_p50": stats(drags)[0],
            "drag_step_ms_p90": stats(drags)[1],
            "click_step_ms_p50": stats(clicks)[0],
            "click_step_ms_p90": stats(clicks)[1],
            "phases_ms": phases_ms,
            "browser_alone_mib": browser_alone,
            "mem_per_env_mib": mem_per_env,
            "envs_for_memory": len(envs),
        }
    )


if __name__ == "__main__":
    main()
