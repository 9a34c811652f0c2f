"""Soak: many episodes (reset to a task, a few actions, evaluation) in one process.

Reports browser (PSS) and Python (RSS) memory after 10 episodes and at the end, the browser's
peak (sampled every ``--sample-every`` episodes), episodes per minute, crashes and retries, and
requests to non-local addresses: every attempt is aborted by the page's request routing before it
leaves the machine (``blocked_requests``); ``external_requests`` counts non-local requests the
browser saw complete (its own network events, independent of the routing). The editor page is
replaced when its JavaScript heap has grown (see ``scratch_gym/editor/memory.py``);
``page_refreshes`` counts those. Prints a table; the last line is one JSON object.

    python benchmarks/soak.py [--episodes 1000] [--actions 3] [--sample-every 50]
"""

from __future__ import annotations

import argparse
import random
import resource
import time

import gymnasium as gym
from tqdm import tqdm

import scratch_gym  # noqa: F401
from scratch_gym.cli.output import print_json_last, table
from scratch_gym.editor.browser import pss_mib, shared_session


def python_rss_mib() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=1000)
    ap.add_argument("--actions", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sample-every", type=int, default=50, help="episodes between memory samples")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    env = gym.make("ScratchWorld-Primitive-v0", tasks="all", reward_mode="sparse")
    env.action_space.seed(args.seed)
    session = shared_session()
    crashes = retries = 0
    peak = 0.0  # the browser's highest PSS among the samples after episode 10
    mem_at_10: tuple[float, float] | None = None
    t0 = time.perf_counter()
    try:
        for episode in tqdm(range(args.episodes), desc="soak", unit="episode"):
            for attempt in range(2):
                try:
                    env.reset(seed=rng.randrange(1 << 30))
                    for _ in range(args.actions):
                        env.step(
                            {
                                "action_type": "drag",
                                "start": [rng.uniform(60, 300), rng.uniform(100, 700)],
                                "end": [rng.uniform(320, 780), rng.uniform(100, 700)],
                            }
                        )
                    env.step({"action_type": "done"})
                    break
                except Exception:  # noqa: BLE001 - counted; the episode is retried once
                    if attempt == 0:
                        retries += 1
                    else:
                        crashes += 1
            if episode == 9:
                mem_at_10 = (pss_mib(session.pids()), python_rss_mib())
            if episode >= 9 and (episode + 1) % args.sample_every == 0:
                peak = max(peak, pss_mib(session.pids()))
        elapsed = time.perf_counter() - t0
        mem_end = (pss_mib(session.pids()), python_rss_mib())
        page = env.unwrapped.page
        refreshes = page.refreshes
        blocked = list(page.requests.blocked)
        external = list(page.requests.external)
    finally:
        env.close()
    assert mem_at_10 is not None, "run at least 10 episodes"
    growth = mem_end[0] / mem_at_10[0] - 1.0
    peak = max(peak, mem_end[0])
    peak_growth = peak / mem_at_10[0] - 1.0
    rows = [
        ("episodes", args.episodes),
        ("episodes per minute", f"{args.episodes / elapsed * 60:.1f}"),
        ("browser PSS after 10 episodes (MiB)", f"{mem_at_10[0]:.0f}"),
        (f"browser PSS after {args.episodes} episodes (MiB)", f"{mem_end[0]:.0f}"),
        ("Python RSS after 10 / at the end (MiB)", f"{mem_at_10[1]:.0f} / {mem_end[1]:.0f}"),
        ("browser memory growth", f"{growth * 100:.1f}%"),
        (f"browser PSS peak, sampled every {args.sample_every} (MiB)", f"{peak:.0f}"),
        ("browser peak growth over episode 10", f"{peak_growth * 100:.1f}%"),
        ("crashes / retries", f"{crashes} / {retries}"),
        ("editor page refreshes (heap growth)", refreshes),
        ("non-local requests blocked", len(blocked)),
        ("non-local requests that completed", len(external)),
    ]
    print(table(["measure", "value"], rows))
    print_json_last(
        {
            "episodes": args.episodes,
            "episodes_per_min": args.episodes / elapsed * 60,
            "mem_browser_10_mib": mem_at_10[0],
            "mem_browser_end_mib": mem_end[0],
            "mem_python_10_mib": mem_at_10[1],
            "mem_python_end_mib": mem_end[1],
            "mem_growth_ratio": growth,
            "mem_browser_peak_mib": peak,
            "mem_peak_growth_ratio": peak_growth,
            "crashes": crashes,
            "retries": retries,
            "page_refreshes": refreshes,
            "blocked_requests": len(blocked),
            "external_requests": len(external),
        }
    )


if __name__ == "__main__":
    main()
