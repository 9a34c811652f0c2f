"""``scratch-gym single-drag``: the Single-Step Drag benchmark (Pass@k, component accuracies,
spatial errors) and the feasible-region tool (``--recompute-regions``).

``--agent`` is a shortcut of ``scratch-gym eval --suite single-drag``: the same runner, results
file, resume and report table, for several agents and settings in one table."""

from __future__ import annotations

import argparse

from scratch_gym.cli import drag_pool
from scratch_gym.cli.arguments import non_negative_int, positive_int
from scratch_gym.cli.output import UsageError, print_error, print_json_last
from scratch_gym.records.text import table


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds the ``single-drag`` subcommand."""
    parser = subparsers.add_parser(
        "single-drag",
        help="Single-Step Drag: run agents (results table) or recompute feasible regions",
        description="Run built-in agents on the single-drag tasks and print the paper's results "
        "table, or recompute the tasks' feasible regions by real drags (BFS).",
    )
    from scratch_gym.cli.eval import add_llm_arguments, agent_name

    parser.add_argument(
        "--agent",
        action="append",
        default=[],
        type=agent_name,
        help="oracle, random, llm, drag-policy (the shipped checkpoint; drag-policy:PATH "
        "another), drag-heuristic (repeatable: one table row each)",
    )
    parser.add_argument(
        "--setting",
        action="append",
        choices=("baseline", "gt_start", "knowledge"),
        help="baseline (default), gt_start (start point given) or knowledge (rules given); "
        "repeatable",
    )
    parser.add_argument("--tasks", nargs="*", default=None, help="task ids (default: all)")
    parser.add_argument(
        "--runs", type=positive_int, default=3, help="runs per task (Pass@k, k <= runs)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the random agent")
    parser.add_argument(
        "--recompute-regions",
        action="store_true",
        help="recompute and store the tasks' feasible regions by BFS with real drags",
    )
    parser.add_argument(
        "--step", type=positive_int, default=5, help="region grid step in px (default 5)"
    )
    parser.add_argument(
        "--levels",
        type=non_negative_int,
        default=2,
        help="coarse levels: probe every step*2**levels px first, refine the boundary (0: none)",
    )
    parser.add_argument("--workers", type=positive_int, default=2, help="editor pages in parallel")
    parser.add_argument(
        "--results", default="runs/single-drag.jsonl", help="results JSONL file (with --agent)"
    )
    parser.add_argument(
        "--resume", action="store_true", help="continue a results file, skipping done episodes"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object last")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    add_llm_arguments(parser)
    parser.set_defaults(handler=run)
    drag_pool.register(parser)


def run(args: argparse.Namespace) -> int:
    from scratch_gym.single_drag.tasks.task import load_tasks

    try:
        tasks = load_tasks(args.tasks or None)
    except (KeyError, ValueError) as exc:
        raise UsageError(str(exc).strip("'\"")) from None
    if args.recompute_regions:
        return _recompute(args, tasks)
    if not args.agent:
        raise UsageError(
            "single-drag needs --agent NAME or --recompute-regions (agents: oracle, random, llm, "
            "drag-policy, drag-heuristic)"
        )
    missing = [t.id for t in tasks if t.regions is None]
    if missing:
        raise UsageError(
            f"tasks without regions: {', '.join(missing)} (run with --recompute-regions first)"
        )
    return _evaluate(args)


def _evaluate(args: argparse.Namespace) -> int:
    """Each agent in each setting through the runner (as ``eval --suite single-drag`` runs it),
    into one results file; one table, one JSON summary."""
    from scratch_gym.cli.eval import agent_kwargs, print_failures, warn_public_endpoint
    from scratch_gym.runner import AgentSpec, ResumeError, run_suite
    from scratch_gym.runner.reports import all_infrastructure, report_tables, summary_json
    from scratch_gym.suites import make_suite

    warn_public_endpoint(args.agent, args)
    records: list[dict] = []
    for name in args.agent:
        kwargs = agent_kwargs(argparse.Namespace(**{**vars(args), "agent": name}))
        for setting in args.setting or ["baseline"]:
            spec = AgentSpec(name, "single_drag", kwargs)
            try:
                records += run_suite(
                    spec,
                    task_ids=args.tasks or None,
                    runs=args.runs,
                    workers=args.workers,
                    results=args.results,
                    resume=args.resume,
                    seed=args.seed,
                    progress=not args.quiet,
                    suite=make_suite("single-drag", setting=setting),
                )
            except (ResumeError, ValueError, OSError) as exc:
                return print_error(str(exc))
    print(report_tables(records))
    print_failures(records, args.results)
    if args.json:
        payload = summary_json(records, "single-drag")
        payload["results"] = args.results
        print_json_last(payload)
    return 1 if all_infrastructure(records) else 0


def _recompute(args: argparse.Namespace, tasks: list) -> int:
    from scratch_gym.single_drag.feasible.probe import recompute

    report = recompute(tasks, args.step, args.levels, args.workers, progress=not args.quiet)
    rows = [
        [tid, s["seconds"], s["probes"], s["start"], s["end"], s["reloads"]]
        for tid, s in sorted(report["tasks"].items())
    ]
    print(table(("task", "seconds", "probes", "start pts", "end pts", "reloads"), rows))
    for tid, error in sorted(report["errors"].items()):
        print(f"{tid}: FAILED {error}")
    if args.json:
        print_json_last(
            {
                "tasks": len(report["tasks"]),
                "errors": report["errors"],
                "seconds": report["seconds"],
            }  # fmt: skip
        )
    return 1 if report["errors"] else 0
