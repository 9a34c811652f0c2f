"""The fast drag path: its speed, and its honesty against real drags in the real editor.

    .venv/bin/python benchmarks/fast_drag.py --pool DIR [--drags 2000] [--num-envs 4096]
        [--seconds 10] [--disagreements 40]

* Speed: ``SingleDragVectorEnv`` (RL-size pixel observations, random grid actions) on one core,
  episodes per second; and the real editor's drag episodes per second during the replay.
* Honesty: ``--drags`` drags spread over the pool's tasks, half inside the feasible regions and
  half near misses within 60 px of them, replayed in the real editor and on the fast path; the
  agreement on success, grabbed block and formed connection, the confusion matrix, and every
  disagreement (``--disagreements`` of them printed, all counted by kind).
Build a pool first: ``scratch-gym single-drag pool build --n 60 --stored --out DIR``.
The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core for the vector env's figure

import numpy as np  # noqa: E402
from tqdm import tqdm  # noqa: E402

from scratch_gym.cli.output import table  # noqa: E402
from scratch_gym.envs.single_drag import SingleDragEnv  # noqa: E402
from scratch_gym.envs.single_drag_fast import SingleDragVectorEnv  # noqa: E402
from scratch_gym.single_drag.fast.calibration import draw_drags, replay  # noqa: E402
from scratch_gym.single_drag.fast.pool import load_pool  # noqa: E402


def vector_speed(pool, num_envs: int, seconds: float) -> float:
    env = SingleDragVectorEnv(num_envs=num_envs, pool=pool, observation="pixels", action="grid")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    actions = [env.action_space.sample() for _ in range(4)]
    env.step(actions[0])  # warm up
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        env.step(actions[int(rng.integers(4))])
        n += num_envs
    return n / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--pool", required=True, help="a pool directory (single-drag pool build)")
    ap.add_argument("--drags", type=int, default=2000, help="real drags to replay")
    ap.add_argument("--num-envs", type=int, default=4096, help="vector env batch size")
    ap.add_argument("--seconds", type=float, default=10.0, help="vector speed measuring time")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--disagreements", type=int, default=40, help="disagreements to print")
    ap.add_argument("--report", help="write every disagreement to this JSON file")
    args = ap.parse_args()

    pool = load_pool(args.pool)
    eps_vector = vector_speed(pool, args.num_envs, args.seconds)
    per_task = max(2, -(-args.drags // len(pool)))
    drags = draw_drags(pool, per_task, args.seed)[: args.drags]
    env = SingleDragEnv()
    try:
        bar = tqdm(total=len(drags), desc="real drags", unit="drag")
        result = replay(env, pool, drags, progress=lambda i: bar.update(1))
        bar.close()
    finally:
        env.close()
    figures = {
        "episodes_per_s_vector": round(eps_vector, 1),
        "episodes_per_s_real": round(result.drags / max(result.real_seconds, 1e-9), 3),
        **result.figures(),
        "tasks": len(pool),
        "num_envs": args.num_envs,
    }
    conf = figures["confusion"]
    print(
        table(
            ["", "real success", "real failure"],
            [
                [
                    "fast success",
                    conf["fast_success_real_success"],
                    conf["fast_success_real_failure"],
                ],
                [
                    "fast failure",
                    conf["fast_failure_real_success"],
                    conf["fast_failure_real_failure"],
                ],
            ],
        )
    )
    rows = [
        [
            d["task"],
            d["drag"],
            d["kind"],
            d["start"],
            d["end"],
            json.dumps(d["fast"]),
            json.dumps(d["real"]),
        ]
        for d in result.disagreements[: args.disagreements]
    ]
    if rows:
        print(table(["task", "drag", "differs in", "start", "end", "fast", "real"], rows))
    print(
        table(
            ["figure", "value"],
            [[k, v] for k, v in figures.items() if not isinstance(v, dict)],
        )
    )
    if args.report:
        with open(args.report, "w") as fh:
            json.dump({"figures": figures, "disagreements": result.disagreements}, fh, indent=1)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
