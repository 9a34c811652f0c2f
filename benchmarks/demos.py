"""Demonstration recording: rate and size of oracle datasets (``scratch-gym demos``).

Records the oracle on a few tasks in each mode into a temporary Minari datasets root (fresh each
run) and reports, per mode: episodes recorded, steps, episodes per minute (wall clock of the
recording, browser start included), megabytes of episode data per episode and kilobytes per step
(the HDF5 file: JPEG pixels, texts, actions, infos) and the whole dataset's size (its metadata
adds a fixed ~1.6 MB at 320x180: Minari spells out the pixel space's bounds). The last line is one
JSON object with ``<mode>_episodes_per_minute``, ``<mode>_mb_per_episode``,
``<mode>_kb_per_step`` and ``<mode>_dataset_mb`` per mode.

    python benchmarks/demos.py [--tasks say-hello fix-bounce add-jump] [--modes primitive composite]
        [--obs-size 320x180] [--workers 1] [--lossless]
"""

from __future__ import annotations

import argparse
import json
import tempfile

from scratch_gym.cli.output import table
from scratch_gym.demos import collect, parse_obs_size
from scratch_gym.runner.suite import select_tasks

DEFAULT_TASKS = ["say-hello", "fix-bounce", "add-jump"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", nargs="+", default=DEFAULT_TASKS)
    parser.add_argument("--modes", nargs="+", default=["primitive", "composite"])
    parser.add_argument("--obs-size", default="320x180")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--lossless", action="store_true")
    args = parser.parse_args()
    tasks = select_tasks(task_ids=args.tasks)
    size = parse_obs_size(args.obs_size)
    rows, figures = [], {}
    for mode in args.modes:
        with tempfile.TemporaryDirectory(prefix="demos-bench-") as out:
            report = collect(
                tasks, mode, out, obs_size=size, workers=args.workers, lossless=args.lossless
            )
        f = report.figures()
        rows.append(
            [
                mode,
                f["recorded"],
                f["episodes"],
                f["steps"],
                f["wall_s"],
                f["episodes_per_minute"],
                f["mb_per_episode"],
                f["kb_per_step"],
                f["dataset_mb"],
            ]
        )
        figures[f"{mode}_episodes_per_minute"] = f["episodes_per_minute"]
        figures[f"{mode}_mb_per_episode"] = f["mb_per_episode"]
        figures[f"{mode}_kb_per_step"] = f["kb_per_step"]
        figures[f"{mode}_dataset_mb"] = f["dataset_mb"]
        figures[f"{mode}_episodes"] = f["episodes"]
    headers = ["mode", "recorded", "in dataset", "steps", "wall s", "episodes/min"]
    headers += ["MB/episode", "kB/step", "dataset MB"]
    print(f"obs size {size[0]}x{size[1]}, {args.workers} worker(s), tasks: {' '.join(args.tasks)}")
    print(table(headers, rows))
    figures.update(
        {"obs_size": f"{size[0]}x{size[1]}", "workers": args.workers, "tasks": args.tasks}
    )
    print(json.dumps(figures, sort_keys=True))


if __name__ == "__main__":
    main()
