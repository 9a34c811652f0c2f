"""``scratch-gym single-drag pool build``: capture a task pool for the fast drag path."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from scratch_gym.cli.arguments import non_negative_int, positive_int
from scratch_gym.cli.output import UsageError, print_json_last
from scratch_gym.progress import progress_bar
from scratch_gym.records.text import table
from scratch_gym.single_drag.generation.versions import VERSION as GENERATOR_VERSION
from scratch_gym.single_drag.generation.versions import VERSIONS as GENERATOR_VERSIONS


def register(single_drag: argparse.ArgumentParser) -> None:
    """Adds ``pool build`` under the ``single-drag`` subcommand."""
    commands = single_drag.add_subparsers(dest="drag_command", metavar="{pool}")
    pool = commands.add_parser("pool", help="task pools for the fast drag path")
    pool_commands = pool.add_subparsers(dest="pool_command", metavar="{build}", required=True)
    build = pool_commands.add_parser(
        "build",
        help="capture generated (and stored) tasks from the real editor into a pool directory",
        description="Capture N generated single-drag tasks (and the stored ones with --stored) "
        "from the real editor into DIR: what the agent observes and the geometry that decides a "
        "drag. The same seed gives the same pool; an interrupted build resumes.",
    )
    build.add_argument(
        "--n", type=non_negative_int, required=True, help="generated tasks to capture"
    )
    build.add_argument("--seed", type=int, default=0, help="generator seed (default 0)")
    build.add_argument(
        "--generator-version",
        type=int,
        choices=GENERATOR_VERSIONS,
        default=GENERATOR_VERSION,
        help=f"which generator draws the tasks (default {GENERATOR_VERSION}; the shipped drag "
        "policy trained on version 7, the one before it on 5)",
    )
    build.add_argument("--out", type=Path, required=True, help="the pool directory")
    build.add_argument(
        "--stored",
        nargs="*",
        metavar="ID",
        help="also capture the stored tasks (all, or the ids given)",
    )
    build.add_argument("--workers", type=positive_int, default=1, help="editor pages in parallel")
    build.add_argument(
        "--obs-size", default="128x72", help="RL pixel observation size WxH (default 128x72)"
    )
    build.add_argument("--json", action="store_true", help="print one JSON object last")
    build.add_argument("--quiet", action="store_true", help="no progress bar")
    build.set_defaults(handler=run_build)


def run_build(args: argparse.Namespace) -> int:
    from scratch_gym.single_drag.fast.pool import build_pool

    if args.out.exists() and not args.out.is_dir():
        raise UsageError(f"--out {args.out} is a file (a pool directory is needed)")
    try:
        w, h = (int(v) for v in args.obs_size.lower().split("x"))
    except ValueError:
        raise UsageError(f"--obs-size must be WxH, e.g. 128x72 (got {args.obs_size!r})") from None
    bar = progress_bar(total=0, desc="capturing", unit="task", disable=args.quiet)

    def progress(done: int, total: int) -> None:
        bar.total = total
        bar.n = done
        bar.refresh()

    t0 = time.perf_counter()
    stored: bool | list[str] = False if args.stored is None else (args.stored or True)
    try:
        manifest = build_pool(
            args.out,
            args.n,
            args.seed,
            stored,
            args.workers,
            (w, h),
            progress=progress,
            version=args.generator_version,
        )
    except (KeyError, ValueError) as exc:  # unknown stored ids, another pool in --out
        bar.close()
        raise UsageError(str(exc).strip("'\"")) from None
    bar.close()
    wall = time.perf_counter() - t0
    size = sum(p.stat().st_size for p in (args.out / "snapshots").glob("*.npz"))
    figures = {
        "pool": str(args.out),
        "tasks": len(manifest["tasks"]),
        "seed": args.seed,
        "wall_s": round(wall, 1),
        "mb": round(size / 2**20, 2),
    }
    print(table(["pool", "tasks", "seed", "wall s", "MB"], [list(figures.values())]))
    if args.json:
        print_json_last(figures)
    return 0
