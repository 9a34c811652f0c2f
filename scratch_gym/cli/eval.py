"""``scratch-gym eval``: evaluate an agent on a task suite; tables, plots, JSON.

Examples::

    scratch-gym eval --agent oracle --mode primitive --runs 1 --results out/oracle.jsonl
    scratch-gym eval --agent random --categories create debug --runs 3 --workers 2 --resume
    scratch-gym eval --agent llm --base-url http://localhost:8000/v1 --model qwen2.5-vl \\
        --coords smart_resize --api-key-env MY_KEY --record out/rec
    scratch-gym eval --report out/*.jsonl --plot out/categories.png   # tables only
    scratch-gym eval --suite scratchworld --scratchworld ~/ScratchWorld --agent oracle \
        --mode composite --max-steps 400   # ScratchWorld's own tasks, scored by its scripts
    scratch-gym eval --suite single-drag --agent oracle --workers 2 --runs 3   # Pass@1-3
    scratch-gym eval --suite perception --agent oracle --screens 20           # accuracy by type
    scratch-gym eval --suite nl2scratch --agent llm --references test.jsonl   # EM/F1/PS/SAC
    scratch-gym eval --agent oracle --observation screen_elements_ocr  # DOM + PaddleOCR, as the paper
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from scratch_gym.cli.arguments import existing_dir, existing_file, positive_int
from scratch_gym.cli.output import print_error, print_json_last

if TYPE_CHECKING:
    from scratch_gym.suites import Suite


def register(sub: argparse._SubParsersAction) -> None:
    from scratch_gym.agents.base import MODES
    from scratch_gym.agents.factory import AGENTS
    from scratch_gym.suites import SUITES

    p = sub.add_parser("eval", help="evaluate an agent on a task suite (tables, plots, JSON)")
    p.add_argument(
        "--agent",
        type=agent_name,
        default="random",
        metavar="AGENT",
        help=f"agent to evaluate: {', '.join(AGENTS)} (single-drag: drag-policy is the shipped "
        "checkpoint, drag-policy:PATH another one)",
    )
    p.add_argument("--label", default="", help="row name in the tables (default: the agent)")
    p.add_argument(
        "--mode",
        default=None,
        choices=list(MODES),
        help="how the agent acts: primitive (default) or composite in the tasks and scratchworld "
        "suites; each other suite has its own one mode (the default there)",
    )
    p.add_argument(
        "--suite",
        default="tasks",
        choices=list(SUITES),
        help="tasks: the shipped suite; scratchworld: the tasks of a ScratchWorld checkout "
        "(--scratchworld PATH), paired with its *_golden.sb3 projects, scored by its own scripts; "
        "single-drag: the Single-Step Drag tasks (--setting); perception: the Visual Perception "
        "QA questions (--perception-seed, --screens); nl2scratch: program writing "
        "(--references JSONL, default the task suite's goldens)",
    )
    p.add_argument(
        "--scratchworld",
        default=None,
        type=existing_dir,
        metavar="PATH",
        help="a ScratchWorld checkout",
    )
    add_observation_argument(p)
    p.add_argument(
        "--time",
        default=None,
        choices=["virtual", "real"],
        help="scratchworld: run its evaluation scripts in virtual time (default: waits cost no "
        "wall time) or in real time, as the original service does",
    )
    p.add_argument(
        "--setting",
        default=None,
        choices=["baseline", "gt_start", "knowledge"],
        help="single-drag: what the agent is told (default baseline)",
    )
    p.add_argument(
        "--regions",
        default=None,
        choices=["editor", "model"],
        help="single-drag with --scratchworld or --tasks-dir: how the BFS of feasible regions probes points: real "
        "drags (editor, the paper's method, default) or the calibrated drag model (seconds per task)",
    )
    p.add_argument(
        "--perception-seed", type=int, default=None, help="perception: benchmark seed (default 0)"
    )
    p.add_argument(
        "--screens", type=int, default=None, help="perception: scenes, 3 questions each (10)"
    )
    p.add_argument(
        "--references",
        default=None,
        type=existing_file,
        metavar="JSONL",
        help="nl2scratch: {key, nl, pseudocode} lines to write programs for",
    )
    p.add_argument("--categories", nargs="*", default=None, help="task categories (default: all)")
    p.add_argument("--tasks", nargs="*", default=None, help="task ids (instead of categories)")
    p.add_argument("--runs", "-k", type=positive_int, default=1, help="runs per task")
    p.add_argument(
        "--workers", type=positive_int, default=1, help="environments in parallel (processes)"
    )
    p.add_argument(
        "--ray", default=None, metavar="ADDRESS", help="Ray cluster ('local' starts one)"
    )
    p.add_argument(
        "--results",
        default=DEFAULT_RESULTS,
        help=f"results JSONL file (default {DEFAULT_RESULTS}; its path is printed under the table)",
    )
    p.add_argument(
        "--resume", action="store_true", help="continue a results file, skipping done episodes"
    )
    p.add_argument("--record", default=None, metavar="DIR", help="save GIF + HTML of every episode")
    p.add_argument("--plot", default=None, metavar="PNG", help="save a per-category bar chart")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--reward-mode", default="sparse", choices=["sparse", "per_step"])
    p.add_argument(
        "--max-steps", type=positive_int, default=None, help="override the tasks' step budgets"
    )
    p.add_argument(
        "--report",
        nargs="*",
        default=None,
        type=existing_file,
        metavar="JSONL",
        help="only print tables (and --plot) of these results files",
    )
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.add_argument("--json", action="store_true", help="print one JSON object last")
    add_llm_arguments(p)
    p.add_argument(
        "--block-reference",
        action="store_true",
        help="composite mode: put the block reference (docs/blocks.md) into the llm's prompt",
    )
    p.set_defaults(handler=run)


def add_observation_argument(p: argparse.ArgumentParser) -> None:
    """``--observation``: the paper's observation ablation (tasks and scratchworld suites)."""
    from scratch_gym.observations.settings import OBSERVATION_NAMES, OBSERVATION_SETTINGS, PRESETS

    settings = "; ".join(f"{s.name}: {s.summary}" for s in OBSERVATION_SETTINGS.values())
    presets = ", ".join(f"{k} = {v}" for k, v in PRESETS.items())
    p.add_argument(
        "--observation",
        default=None,
        choices=list(OBSERVATION_NAMES),
        help=f"tasks and scratchworld suites, primitive mode: what the agent sees ({settings}; "
        f"default screen_elements). Preset: {presets}, the paper's primitive-mode observation. "
        "Recorded in every result row and table title",
    )


def agent_name(text: str) -> str:
    """argparse type of ``--agent``: a known agent or ``drag-policy:PATH``."""
    from scratch_gym.agents.factory import split_agent_name

    try:
        split_agent_name(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def add_llm_arguments(p: argparse.ArgumentParser) -> None:
    """The LLM agent's options (shared by ``eval``, ``run`` and ``single-drag``)."""
    from scratch_gym.agents.coords import CONVENTIONS

    llm = p.add_argument_group("llm agent")
    llm.add_argument(
        "--base-url",
        default=PUBLIC_BASE_URL,
        help="OpenAI-compatible endpoint (default: the public OpenAI API, which needs a key)",
    )
    llm.add_argument("--model", default="gpt-4o")
    llm.add_argument(
        "--api-key-env",
        default=DEFAULT_KEY_ENV,
        help=f"environment variable with the key (default {DEFAULT_KEY_ENV})",
    )
    llm.add_argument("--coords", default="pixels", choices=CONVENTIONS)
    llm.add_argument("--history", type=int, default=5, help="recent steps in the prompt")
    llm.add_argument("--max-retries", type=int, default=3)
    llm.add_argument("--temperature", type=float, default=0.0)


def warn_public_endpoint(agents: list[str], args: argparse.Namespace) -> None:
    """One warning line on stderr when an LLM agent will call the public default endpoint with no
    key in its environment variable (every request would fail with HTTP 401)."""
    import os
    import sys

    if "llm" not in agents or args.base_url.rstrip("/") != PUBLIC_BASE_URL:
        return
    if not os.environ.get(args.api_key_env):
        print(
            f"warning: the llm agent calls the public endpoint {PUBLIC_BASE_URL} but "
            f"${args.api_key_env} is unset, so every request will fail (set it, or give "
            "--base-url of your own server)",
            file=sys.stderr,
            flush=True,
        )


def print_failures(records: list[dict], results: str | list[str] | None) -> None:
    """Under the tables: each error kind's count and first message, each agent's unparsed
    replies, and where the results file is."""
    from scratch_gym.runner.reports import failure_lines

    for line in failure_lines(records):
        print(line)
    if isinstance(results, str):
        print(f"results: {results} ({len(records)} episodes)")


def agent_kwargs(args: argparse.Namespace) -> dict:
    if args.agent == "llm":
        return {
            "base_url": args.base_url,
            "model": args.model,
            "api_key_env": args.api_key_env,
            "coords": args.coords,
            "history": args.history,
            "max_retries": args.max_retries,
            "temperature": args.temperature,
        } | ({"block_reference": True} if getattr(args, "block_reference", False) else {})
    if args.agent == "random":
        return {"seed": args.seed}
    return {}


PUBLIC_BASE_URL = "https://api.openai.com/v1"
DEFAULT_KEY_ENV = "OPENAI_API_KEY"
DEFAULT_RESULTS = "runs/results.jsonl"

# the command-line flag of each suite option
SUITE_FLAGS = {
    "scratchworld": "--scratchworld",
    "time": "--time",
    "setting": "--setting",
    "regions": "--regions",
    "seed": "--perception-seed",
    "screens": "--screens",
    "references": "--references",
    "tasks_dirs": "--tasks-dir",
    "observation": "--observation",
}


def suite_from_args(args: argparse.Namespace) -> Suite:
    """The suite the arguments name, with its options (ValueError naming a misplaced one)."""
    from scratch_gym.suites import make_suite

    if args.suite == "scratchworld" and args.scratchworld:
        from scratch_gym.tasks.scratchworld import ScratchWorldCheckout

        try:
            ScratchWorldCheckout(args.scratchworld)
        except FileNotFoundError as exc:
            raise ValueError(str(exc)) from exc
    options = {
        "scratchworld": args.scratchworld,
        "time": args.time,
        "setting": args.setting,
        "regions": args.regions,
        "seed": args.perception_seed,
        "screens": args.screens,
        "references": args.references,
        "observation": args.observation,
    }
    if args.suite == "single-drag" and getattr(args, "tasks_dirs", None):
        options["tasks_dirs"] = tuple(args.tasks_dirs)  # other suites read them from the registry
    return make_suite(args.suite, labels=SUITE_FLAGS, **options)


def run(args: argparse.Namespace) -> int:
    from scratch_gym.agents.factory import check_agent_mode
    from scratch_gym.runner import AgentSpec, EnvSpec, ResultsFile, ResumeError, evaluate
    from scratch_gym.runner.reports import all_infrastructure, report_tables, summary_json

    if args.report is not None:
        try:
            records = [r for path in args.report for r in ResultsFile(path).records()]
        except (OSError, ValueError) as exc:
            return print_error(f"cannot read the results file: {exc}")
        suite_name = None
    else:
        try:
            suite = suite_from_args(args)
            mode = args.mode or suite.modes[0]
            suite.check_mode(mode)
            check_agent_mode(args.agent, mode)
            if args.block_reference and (args.agent != "llm" or mode != "composite"):
                raise ValueError(
                    f"--block-reference is for the llm agent in composite mode, not "
                    f"{args.agent} in {mode} mode"
                )
        except ValueError as exc:
            return print_error(str(exc))
        suite_name = suite.name
        warn_public_endpoint([args.agent], args)
        spec = AgentSpec(args.agent, mode, agent_kwargs(args), args.label)
        env = EnvSpec(reward_mode=args.reward_mode, max_steps=args.max_steps)
        try:
            records = evaluate(
                spec,
                categories=args.categories,
                task_ids=args.tasks,
                runs=args.runs,
                workers=args.workers,
                results=args.results,
                resume=args.resume,
                env=env,
                ray_address=args.ray,
                record_dir=args.record,
                seed=args.seed,
                progress=not args.no_progress,
                suite=suite,
            )
        except (ResumeError, ValueError, KeyError, OSError) as exc:
            return print_error(str(exc).strip("'\""))
    print(report_tables(records))
    print_failures(records, args.results if args.report is None else None)
    if args.plot:
        from scratch_gym.runner.plots import plot_categories

        print(f"plot: {plot_categories(records, Path(args.plot))}")
    if args.json:
        payload = summary_json(records, suite_name)
        payload["results"] = args.results if args.report is None else args.report
        print_json_last(payload)
    return 1 if all_infrastructure(records) else 0
