"""Single-Step Drag costs: feasible-region time per task, episode step time, and the agreement
of geometry-derived regions with BFS regions.

    .venv/bin/python benchmarks/single_drag_regions.py [--recompute dc-01 si-01] [--levels 2]
        [--workers 1] [--episodes 20] [--agreement 10]

* Stored: the seconds and probes each stored task's BFS took (recorded when it was computed).
* Recompute: BFS for the named tasks again (into a temporary folder; the stored data is kept).
* Step: oracle episodes, median and p90 of the drag step (drag + settle + screenshot) and reset.
* Agreement: IoU of geometry regions with BFS regions on a sample of stored tasks.
* Model BFS: IoU of regions whose BFS probes the calibrated drag model (``--regions model``)
  with the real drags' BFS regions, on the same sample (end regions compared relative to each
  one's anchor), and with ``--scratchworld PATH`` also on that checkout's tasks whose real-drag
  regions are cached.
The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from scratch_gym.agents.single_drag import DragOracleAgent
from scratch_gym.cli.output import table
from scratch_gym.envs.single_drag import SingleDragEnv
from scratch_gym.single_drag import editor_drag
from scratch_gym.single_drag.feasible.geometric import agreement, geometric_regions
from scratch_gym.single_drag.feasible.probe import compute_regions, recompute
from scratch_gym.single_drag.tasks.regions import Region
from scratch_gym.single_drag.tasks.task import load_tasks


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--recompute", nargs="*", default=["dc-01"], help="tasks to recompute")
    ap.add_argument("--step", type=int, default=5)
    ap.add_argument("--levels", type=int, default=2)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--episodes", type=int, default=20, help="oracle episodes for step time")
    ap.add_argument("--agreement", type=int, default=10, help="stored tasks to compare")
    ap.add_argument("--scratchworld", metavar="PATH", help="also compare the model's BFS regions on "
                    "this checkout's drag tasks that have cached real-drag regions")  # fmt: skip
    args = ap.parse_args()
    out: dict = {}

    tasks = [t for t in load_tasks() if t.regions is not None and t.regions.method == "bfs"]
    stats = [t.regions.stats for t in tasks]
    rows = [[t.id, s.get("seconds"), s.get("probes"), len(t.regions.start), len(t.regions.end)]
            for t, s in zip(tasks, stats, strict=True)]  # fmt: skip
    print("Stored BFS regions (as recorded when computed):")
    print(table(("task", "seconds", "probes", "start pts", "end pts"), rows))
    secs = [float(s["seconds"]) for s in stats if "seconds" in s]
    out["stored_tasks"] = len(tasks)
    out["stored_region_s_p50"] = statistics.median(secs) if secs else None
    out["stored_region_s_mean"] = statistics.mean(secs) if secs else None
    out["stored_probes_mean"] = (
        statistics.mean(float(s["probes"]) for s in stats) if stats else None
    )

    if args.recompute:
        with tempfile.TemporaryDirectory(prefix="single-drag-regions-") as tmp:
            report = recompute(load_tasks(args.recompute), args.step, args.levels, args.workers,
                               Path(tmp), progress=False)  # fmt: skip
        rows = [[tid, s["seconds"], s["probes"], s["inferred"], s["reloads"]]
                for tid, s in sorted(report["tasks"].items())]  # fmt: skip
        print(f"\nRecomputed now (step {args.step} px, levels {args.levels}, "
              f"{args.workers} worker(s)):")  # fmt: skip
        print(table(("task", "seconds", "probes", "inferred", "reloads"), rows))
        out["recompute_s_per_task"] = statistics.mean(r[1] for r in rows) if rows else None
        out["recompute_s_per_probe"] = (
            sum(r[1] for r in rows) / max(1, sum(r[2] for r in rows)) if rows else None
        )
        out["recompute_errors"] = report["errors"]

    env = SingleDragEnv(tasks=[t.id for t in tasks])
    oracle = DragOracleAgent()
    oracle.bind(env)
    try:
        step_ms, reset_ms = [], []
        for i in range(args.episodes):
            task = tasks[i % len(tasks)]
            t0 = time.perf_counter()
            obs, info = env.reset(options={"task": task})
            reset_ms.append((time.perf_counter() - t0) * 1000)
            oracle.reset(task)
            info = env.step(oracle.act(obs, info))[4]
            step_ms.append(info["step_time_ms"])
        out.update(step_ms_p50=pct(step_ms, 0.5), step_ms_p90=pct(step_ms, 0.9),
                   reset_ms_p50=pct(reset_ms, 0.5), reset_ms_p90=pct(reset_ms, 0.9))  # fmt: skip
        print(f"\nEpisode: step (drag+settle+screenshot) p50 {out['step_ms_p50']:.0f} ms, "
              f"p90 {out['step_ms_p90']:.0f} ms; reset p50 {out['reset_ms_p50']:.0f} ms")  # fmt: skip

        rows, ious_s, ious_e, geo_ms = [], [], [], []
        for task in tasks[: args.agreement]:
            editor_drag.prepare(env.page, task)
            t0 = time.perf_counter()
            geo = geometric_regions(env.page, task, task.regions.step)
            geo_ms.append((time.perf_counter() - t0) * 1000)
            a_s = agreement(geo.start, task.regions.start)
            a_e = agreement(geo.end, task.regions.end)
            ious_s.append(a_s["iou"])
            ious_e.append(a_e["iou"])
            rows.append([task.id, a_s["iou"], a_e["iou"], a_e["precision"], a_e["recall"]])
        if rows:
            print("\nGeometry regions vs BFS regions (IoU; end precision/recall):")
            print(table(("task", "start IoU", "end IoU", "end prec", "end recall"), rows))
            out.update(agreement_tasks=len(rows), start_iou_mean=statistics.mean(ious_s),
                       end_iou_mean=statistics.mean(ious_e),
                       geometry_region_ms_p50=pct(geo_ms, 0.5))  # fmt: skip
        compared = tasks[: args.agreement] + scratchworld_with_regions(args.scratchworld)
        rows = [model_agreement(env.page, task) for task in compared]
        if rows:
            print(
                "\nModel-probed BFS regions vs real-drag BFS regions (IoU; end relative to anchor):"
            )
            print(table(("task", "start IoU", "end IoU", "model s", "probes"), rows))
            out.update(model_agreement_tasks=len(rows),
                       model_start_iou_median=statistics.median(r[1] for r in rows),
                       model_end_iou_median=statistics.median(r[2] for r in rows),
                       model_region_s_p50=statistics.median(r[3] for r in rows))  # fmt: skip
    finally:
        env.close()
    print(json.dumps(out, sort_keys=True, default=str))


def scratchworld_with_regions(checkout: str | None) -> list:
    """The checkout's drag tasks whose real-drag BFS regions are cached."""
    if not checkout:
        return []
    from scratch_gym.scratchworld.drag import load_scratchworld_drag_tasks
    from scratch_gym.single_drag.feasible.cache import attach_regions

    tasks = load_scratchworld_drag_tasks(checkout)
    attach_regions(tasks, compute=False)
    return [t for t in tasks if t.regions is not None]


def model_agreement(page, task) -> list:
    """[id, start IoU, end IoU (relative to each anchor), seconds, probes] of the model's BFS."""
    t0 = time.perf_counter()
    model = compute_regions(page, task, task.regions.step, probe="model")
    seconds = time.perf_counter() - t0
    shift = np.subtract(task.regions.anchor, model.anchor)
    end = Region.of(model.end.points + shift.astype(int), model.end.step)
    return [task.id, agreement(model.start, task.regions.start)["iou"],
            agreement(end, task.regions.end)["iou"], round(seconds, 1), model.stats["probes"]]  # fmt: skip


if __name__ == "__main__":
    main()
