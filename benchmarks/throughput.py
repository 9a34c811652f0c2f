"""Throughput of the RL-facing pixels id: steps and resets per second with 1, 2 and 4 environments.

Episodes are 20 random drags (resets included), in ``SyncVectorEnv`` and ``AsyncVectorEnv``
(shared memory). Also: single-drag episodes per second, memory per environment, the cost of each
observation kind (pixels, elements with and without OCR, pseudocode), and the speed-up
against a fixed-wait baseline that sleeps 2 s after every action like the reference ScratchWorld
server (measured in the same run), and the CPU each kind of process used while stepping (this
process, the async env workers, the Playwright drivers, Chromium's processes). Prints tables; the
last line is one JSON object.

    python benchmarks/throughput.py [--steps 60] [--envs 1 2 4] [--baseline-steps 4]
"""

from __future__ import annotations

import argparse
import os
import time

import gymnasium as gym
import numpy as np

import scratch_gym  # noqa: F401
from scratch_gym.cli.output import print_json_last, table
from scratch_gym.editor.browser import descendants, proc_stat, pss_mib, shared_session
from scratch_gym.tasks import list_tasks

ENV_ID = "ScratchWorld-PrimitivePixels-v0"
EPISODE_STEPS = 20
FIXED_WAIT_S = 2.0


class FixedWait(gym.Wrapper):
    """The reference server's behaviour: sleep a fixed time after each action."""

    def step(self, action):
        out = self.env.step(action)
        time.sleep(FIXED_WAIT_S)
        return out


def make(fixed_wait: bool = False):
    def thunk():
        env = gym.make(ENV_ID, max_steps=EPISODE_STEPS)
        return FixedWait(env) if fixed_wait else env

    return thunk


ROLES = ("main", "env workers", "playwright drivers", "chromium")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _role(pid: int, comm: str) -> str:
    if pid == os.getpid():
        return "main"
    if comm.startswith("python"):
        return "env workers"
    return "playwright drivers" if comm.startswith("node") else "chromium"


def process_cpu_s() -> dict[int, tuple[str, float]]:
    """CPU seconds (user + system) of this process and each of its descendants, by pid, with the
    process's role (``ROLES``), read from /proc."""
    out = {}
    for pid in descendants(os.getpid()):
        stat = proc_stat(pid)
        if stat is None:
            continue  # ended meanwhile
        comm, fields = stat
        utime, stime = int(fields[11]), int(fields[12])
        out[pid] = (_role(pid, comm), (utime + stime) / CLOCK_TICKS)
    return out


def cpu_by_role(before: dict, after: dict, seconds: float) -> dict[str, dict[str, float]]:
    """Per role: processes alive at the end, and CPU use in % of one core (all of the role's
    processes together and per process) between two ``process_cpu_s`` samples."""
    out = {}
    for role in ROLES:
        pids = [pid for pid, (r, _) in after.items() if r == role]
        used = sum(after[pid][1] - before.get(pid, (role, 0.0))[1] for pid in pids)
        total = 100 * used / seconds
        out[role] = {"processes": len(pids), "cpu_pct": total,
                     "cpu_pct_per_process": total / len(pids) if pids else 0.0}  # fmt: skip
    return out


def run_vector(kind: str, n_envs: int, steps: int, fixed_wait: bool = False) -> dict:
    cls = gym.vector.AsyncVectorEnv if kind == "async" else gym.vector.SyncVectorEnv
    kwargs = {"shared_memory": True} if kind == "async" else {}
    vec = cls([make(fixed_wait) for _ in range(n_envs)], **kwargs)
    try:
        vec.reset(seed=0)
        vec.action_space.seed(0)
        resets = 0
        cpu_before = process_cpu_s()
        t0 = time.perf_counter()
        for _ in range(steps):
            _, _, terminated, truncated, _ = vec.step(vec.action_space.sample())
            resets += int(np.sum(terminated | truncated))
        elapsed = time.perf_counter() - t0
        cpu = cpu_by_role(cpu_before, process_cpu_s(), elapsed)
    finally:
        vec.close()
    total_steps = steps * n_envs
    return {
        "kind": kind,
        "envs": n_envs,
        "steps": total_steps,
        "seconds": elapsed,
        "steps_per_s": total_steps / elapsed,
        "resets_per_s": resets / elapsed,
        "cpu": cpu,
    }


def _median_ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return float(np.median(times))


def observation_costs(repeats: int = 10) -> dict[str, float]:
    """Median ms of producing each observation kind on one page (the same task screen).

    OCR is measured as a full pass with its line cache off (the cost of a screen never seen);
    ``benchmarks/ocr.py`` measures the incremental cost on steps that change the workspace.
    """
    from scratch_gym.observations.elements import ElementReader
    from scratch_gym.observations.pseudocode import PseudocodeObservation
    from scratch_gym.ocr import OcrUnavailable, make_engine

    env = gym.make("ScratchWorld-Primitive-v0", task=list_tasks()[0].id)
    env.reset()
    page = env.unwrapped.page
    shot = page.screenshot()
    pseudocode = PseudocodeObservation()
    kinds = {
        "pixels 1280x720": lambda: page.screenshot(),
        "pixels 128x72": lambda: page.screenshot((128, 72)),
        "elements, DOM only": lambda: ElementReader().read(page),
        "pseudocode (composite text)": lambda: pseudocode.observe(page, env.unwrapped.text),
    }
    try:
        engine = make_engine("paddleocr", cache_size=0)
        kinds["OCR, full frame (no cache)"] = lambda: engine.recognize(shot)
    except OcrUnavailable as exc:
        print(f"OCR not measured: {exc}")
    try:
        return {name: _median_ms(fn, repeats) for name, fn in kinds.items()}
    finally:
        env.close()


def single_drag_episodes(episodes: int) -> dict[str, float]:
    """One-drag episodes (reset to a generated task, one random drag, verdict) per second."""
    env = gym.make("ScratchWorld-SingleDragPixels-v0", tasks="generated")
    try:
        env.reset(seed=0)
        env.action_space.seed(0)
        t0 = time.perf_counter()
        for i in range(episodes):
            env.reset(seed=1 + i)
            env.step(env.action_space.sample())
        elapsed = time.perf_counter() - t0
    finally:
        env.close()
    return {"episodes": episodes, "seconds": elapsed, "episodes_per_s": episodes / elapsed}


def memory_per_env(n: int = 2) -> float:
    session = shared_session()
    session.acquire()
    time.sleep(0.5)
    alone = pss_mib(session.pids())
    envs = [gym.make(ENV_ID) for _ in range(n)]
    for e in envs:
        e.reset()
    time.sleep(0.5)
    total = pss_mib(session.pids())
    for e in envs:
        e.close()
    session.release()
    return (total - alone) / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=60, help="vector steps per configuration")
    ap.add_argument("--envs", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--baseline-steps", type=int, default=4)
    ap.add_argument("--drag-episodes", type=int, default=30, help="single-drag episodes")
    args = ap.parse_args()

    results = []
    for n in args.envs:
        for kind in ("sync", "async"):
            if n == 1 and kind == "async":
                continue
            results.append(run_vector(kind, n, args.steps))
    baseline = run_vector("sync", 1, args.baseline_steps, fixed_wait=True)
    drags = single_drag_episodes(args.drag_episodes)
    costs = observation_costs()
    mem = memory_per_env()

    rows = [
        (r["kind"], r["envs"], r["steps"], f"{r['steps_per_s']:.2f}", f"{r['resets_per_s']:.3f}")
        for r in results
    ]
    rows.append(("fixed 2 s wait", 1, baseline["steps"], f"{baseline['steps_per_s']:.2f}", "-"))
    print(table(["vector", "envs", "steps", "steps/s", "resets/s"], rows))
    print("\nCPU use while stepping, % of one core (processes; per process):")
    cpu_rows = [
        (r["kind"], r["envs"], *(
            f"{r['cpu'][role]['cpu_pct']:.0f} ({r['cpu'][role]['processes']}; "
            f"{r['cpu'][role]['cpu_pct_per_process']:.0f})" for role in ROLES))
        for r in results
    ]  # fmt: skip
    print(table(["vector", "envs", *ROLES], cpu_rows))
    print()
    print(table(["observation", "ms (median)"], [(k, f"{v:.1f}") for k, v in costs.items()]))
    print(f"\nmemory per environment (browser PSS): {mem:.0f} MiB")
    print(
        f"single-drag episodes (generated task, one drag, verdict), 1 env: "
        f"{drags['episodes_per_s']:.2f} episodes/s"
    )

    def best(n: int) -> float:
        return max(r["steps_per_s"] for r in results if r["envs"] == n)

    def async_rate(n: int) -> float | None:
        return next(
            (r["steps_per_s"] for r in results if r["envs"] == n and r["kind"] == "async"), None
        )

    one = best(1) if 1 in args.envs else float("nan")
    two = best(2) if 2 in args.envs else float("nan")
    figures = {
        "steps_per_s_1env": one,
        "steps_per_s_2envs": two,
        "steps_per_s_4envs": best(4) if 4 in args.envs else None,
        "steps_per_s_async_2": async_rate(2),
        "steps_per_s_async_4": async_rate(4),
        "fixed_wait_steps_per_s": baseline["steps_per_s"],
        "speedup_vs_fixed_wait": one / baseline["steps_per_s"],
        "mem_per_env_mib": mem,
        "single_drag_episodes_per_s": drags["episodes_per_s"],
        "observation_ms": costs,
        "episode_steps": EPISODE_STEPS,
        "runs": results,
    }
    print_json_last(figures)


if __name__ == "__main__":
    main()
