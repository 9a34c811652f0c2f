"""``scratch-gym demos``: record oracle demonstrations as a Minari dataset.

    scratch-gym demos --suite tasks --mode primitive --out demos/ [--obs-size 320x180]
        [--tasks ID ...] [--categories C ...] [--workers N] [--resume]
    MINARI_DATASETS_PATH=demos/ python -c "import minari; d = minari.load_dataset(
        'scratch-gym/tasks-primitive-v0'); env = d.recover_environment()"

The format (observations, actions, infos) is described in :mod:`scratch_gym.demos.format`.
"""

from __future__ import annotations

import argparse

from scratch_gym.cli.arguments import existing_dir
from scratch_gym.cli.output import print_error, print_json_last
from scratch_gym.records.text import table


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "demos",
        help="record oracle demonstrations as a Minari dataset",
        description="Record the oracle on a task suite and write a Minari dataset "
        "(observations, actions, rewards, terminations, truncations, infos) under --out, a "
        "Minari datasets root: load it with MINARI_DATASETS_PATH=OUT and "
        "minari.load_dataset('scratch-gym/<suite>-<mode>-v0').",
    )
    p.add_argument("--suite", default="tasks", choices=["tasks", "scratchworld"])
    p.add_argument(
        "--scratchworld",
        type=existing_dir,
        metavar="PATH",
        help="with --suite scratchworld: a checkout",
    )
    p.add_argument("--mode", default="primitive", choices=["primitive", "composite"])
    p.add_argument("--out", required=True, metavar="DIR", help="Minari datasets root to write")
    p.add_argument("--obs-size", default="320x180", metavar="WxH", help="pixel observation size")
    p.add_argument(
        "--tasks",
        nargs="*",
        default=None,
        help="task ids and categories (default: the whole suite)",
    )
    p.add_argument("--categories", nargs="*", default=None, help="task categories")
    p.add_argument("--runs", type=int, default=1, help="episodes per task (seeds seed+run)")
    p.add_argument("--workers", type=int, default=1, help="environments in parallel (processes)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--reward-mode", default="sparse", choices=["sparse", "per_step"])
    p.add_argument("--keep-failures", action="store_true", help="also keep unsuccessful episodes")
    p.add_argument("--lossless", action="store_true", help="store pixels raw, not JPEG")
    p.add_argument("--resume", action="store_true", help="continue: skip recorded episodes")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.add_argument("--json", action="store_true", help="print one JSON object last")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from scratch_gym.demos import DemoResumeError, collect, parse_obs_size
    from scratch_gym.runner.suite import select_tasks
    from scratch_gym.tasks import UnknownTaskError

    try:
        import minari  # noqa: F401
    except ImportError:
        return print_error("demos need Minari: pip install 'scratch-gym[demos]' (minari[hdf5])")
    try:
        obs_size = parse_obs_size(args.obs_size)
    except ValueError as exc:
        return print_error(str(exc).strip("'\""))
    if args.suite == "scratchworld" and not args.scratchworld:
        return print_error(
            "--suite scratchworld needs --scratchworld PATH (a ScratchWorld checkout)"
        )
    if args.runs < 1 or args.workers < 1:
        return print_error("--runs and --workers must be at least 1")
    scratchworld = args.scratchworld if args.suite == "scratchworld" else None
    try:
        tasks = select_tasks(args.categories, args.tasks, scratchworld)
    except (UnknownTaskError, KeyError, ValueError, FileNotFoundError) as exc:
        return print_error(str(exc).strip("'\""))
    if not tasks:
        return print_error("no tasks selected")
    try:
        report = collect(
            tasks,
            args.mode,
            args.out,
            obs_size=obs_size,
            suite=args.suite,
            runs=args.runs,
            workers=args.workers,
            seed=args.seed,
            reward_mode=args.reward_mode,
            keep_failures=args.keep_failures,
            lossless=args.lossless,
            resume=args.resume,
            scratchworld=scratchworld,
            progress=not args.no_progress,
        )
    except DemoResumeError as exc:
        return print_error(str(exc).strip("'\""))
    except RuntimeError as exc:
        print_error(str(exc))
        return 1
    rows = [
        (r["task"], r["run"], r["status"], r.get("steps", "-"), "yes" if r.get("kept") else "no")
        for r in report.records
    ]
    print(table(["task", "run", "status", "steps", "in dataset"], rows))
    figures = report.figures()
    print(
        f"\ndataset {report.dataset_id}: {figures['episodes']} episodes, {figures['steps']} steps, "
        f"{figures['dataset_mb']} MB in all, episode data {figures['mb_per_episode']} MB/episode"
    )
    if figures["episodes_per_minute"]:
        print(f"recorded {report.new_episodes} episodes at {figures['episodes_per_minute']}/min")
    print(
        f'load it: MINARI_DATASETS_PATH={report.root} python -c "import minari; '
        f"d = minari.load_dataset('{report.dataset_id}')\""
    )
    if args.json:
        print_json_last(figures)
    return 0
