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
    scratch-gym eval --suite perception --scratchworld ~/ScratchWorld --agent llm  # their 200 items
    scratch-gym eval --suite nl2scratch --agent llm --references test.jsonl   # EM/F1/PS/SAC
    scratch-gym eval --agent oracle --observation screen_elements_ocr  # DOM + PaddleOCR, as the paper
    scratch-gym eval --suite nl2scratch --agent llm --references test.jsonl --protocol paper \
        --shots 20 --examples examples.jsonl                # the paper's protocol, retrieval ICL
    scratch-gym eval --suite nl2scratch --agent llm --references test.jsonl --protocol paper \
        --samples 8 --temperature 0.7 --top-p 0.9       # candidates for reranking
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from scratch_gym.cli.arguments import existing_dir, existing_file, non_negative_int, positive_int
from scratch_gym.cli.output import print_error, print_json_last

if TYPE_CHECKING:
    from scratch_gym.suites import Suite


def register(sub: argparse._SubParsersAction) -> None:
    from scratch_gym.agents.base import AGENT_MODES
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
        choices=list(AGENT_MODES),
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
        "QA questions (--perception-seed, --screens), or with --scratchworld PATH the 200 items "
        "of ScratchWorld's Visual Perception benchmark, judged by its rules and tabled per task "
        "type and tag as its results script does; nl2scratch: program writing "
        "(--references JSONL, default the task suite's goldens)",
    )
    p.add_argument(
        "--scratchworld",
        default=None,
        type=existing_dir,
        metavar="PATH",
        help="a ScratchWorld checkout (the scratchworld suite's tasks; single-drag: its drag "
        "tasks; perception: its Visual Perception benchmark)",
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
    p.add_argument(
        "--tasks",
        nargs="*",
        default=None,
        help="task ids and categories, instead of --categories (docs/tasks-and-rewards.md)",
    )
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
    add_generation_arguments(p)
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
        help=f"primitive mode, tasks (eval: the tasks and scratchworld suites; run: --task): what "
        f"the agent sees ({settings}; default screen_elements). Preset: {presets}, the paper's "
        "primitive-mode observation. Recorded in every result row and table title",
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


def add_generation_arguments(p: argparse.ArgumentParser) -> None:
    """The nl2scratch suite's generation protocol and its options (docs/nl2scratch.md)."""
    from scratch_gym.nl2scratch.generation import DEFAULT_GENERATION, GENERATION_PROTOCOLS

    g = p.add_argument_group("nl2scratch generation")
    g.add_argument(
        "--protocol",
        default=None,
        choices=list(GENERATION_PROTOCOLS),
        help=f"nl2scratch: how programs are generated (default {DEFAULT_GENERATION}: 3 attempts "
        "with parser feedback, JSON reply, project context; paper: one greedy generation of at "
        "most 384 tokens, plain-text reply)",
    )
    g.add_argument(
        "--shots",
        type=non_negative_int,
        default=0,
        metavar="K",
        help="paper protocol: K TF-IDF-nearest examples of --examples in the prompt",
    )
    g.add_argument(
        "--examples",
        default=None,
        type=existing_file,
        metavar="JSONL",
        help="the retrieval examples: {nl, pseudocode, key?} lines (never retrieved for themselves)",
    )
    g.add_argument(
        "--samples",
        type=positive_int,
        default=1,
        metavar="N",
        help="paper protocol: N sampled candidates with log-probs (with --temperature > 0); the "
        "first is scored, all are written to --candidates",
    )
    g.add_argument("--top-p", type=float, default=None, help="nucleus sampling (with --samples)")
    g.add_argument(
        "--candidates",
        default=None,
        metavar="JSONL",
        help="where --samples writes the candidates (default: the results file's name with "
        ".candidates.jsonl); score them with scratch-gym nl2scratch --predictions",
    )


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


def generation_kwargs(args: argparse.Namespace) -> dict:
    """The llm agent's options under the nl2scratch ``paper`` generation protocol (checked)."""
    from scratch_gym.nl2scratch.generation import check_generation_options

    options = {
        "shots": args.shots,
        "examples": args.examples,
        "samples": args.samples,
        "temperature": args.temperature,
        "top_p": args.top_p,
    }
    check_generation_options(args.protocol, **options)
    if args.protocol != "paper":
        return {}
    if args.agent != "llm" and (args.shots or args.samples > 1):
        raise ValueError(f"--shots and --samples are options of the llm agent, not {args.agent}")
    if args.examples:
        from scratch_gym.nl2scratch.retrieval import read_examples

        read_examples(args.examples)  # a bad line is named here, before any browser starts
    return {"protocol": "paper", **options}


def agent_kwargs(args: argparse.Namespace) -> dict:
    if args.agent == "llm" and getattr(args, "protocol", None) == "paper":
        base = {"base_url": args.base_url, "model": args.model, "api_key_env": args.api_key_env}
        return base | {"max_retries": args.max_retries} | generation_kwargs(args)
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
    "protocol": "--protocol",
}


def suite_from_args(args: argparse.Namespace) -> Suite:
    """The suite the arguments name, with its options (ValueError naming a misplaced one)."""
    from scratch_gym.suites import make_suite

    if args.suite == "scratchworld" and args.scratchworld:
        from scratch_gym.scratchworld.tasks import ScratchWorldCheckout

        try:
            ScratchWorldCheckout(args.scratchworld)
        except FileNotFoundError as exc:
            raise ValueError(str(exc)) from exc
    if args.suite == "perception" and args.scratchworld:
        from scratch_gym.scratchworld.perception import load_items

        given = [f for f, v in (("--screens", args.screens), ("--perception-seed",
                 args.perception_seed)) if v is not None]  # fmt: skip
        if given:
            raise ValueError(
                f"{' and '.join(given)} choose the built-in questions; with --scratchworld the "
                "perception suite asks ScratchWorld's items"
            )
        load_items(args.scratchworld)  # a missing folder or bad item is named before any run
    options = {
        "scratchworld": args.scratchworld,
        "time": args.time,
        "setting": args.setting,
        "regions": args.regions,
        "seed": args.perception_seed,
        "screens": args.screens,
        "references": args.references,
        "observation": args.observation,
        "protocol": args.protocol,
    }
    if args.suite == "single-drag" and getattr(args, "tasks_dirs", None):
        options["tasks_dirs"] = tuple(args.tasks_dirs)  # other suites read them from the registry
    return make_suite(args.suite, labels=SUITE_FLAGS, **options)


def run(args: argparse.Namespace) -> int:
    from scratch_gym.agents.factory import check_agent_mode
    from scratch_gym.runner import AgentSpec, EnvSpec, ResultsFile, ResumeError, run_suite
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
            generation_kwargs(args)  # the generation options, checked before any browser starts
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
            records = run_suite(
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
    candidates = None
    if args.report is None and args.samples > 1:
        candidates = write_candidates(records, args.candidates or candidates_path(args.results))
        print(
            f"candidates: {candidates} (score: scratch-gym nl2scratch --predictions {candidates})"
        )
    if args.plot:
        from scratch_gym.runner.plots import plot_categories

        print(f"plot: {plot_categories(records, Path(args.plot))}")
    if args.json:
        payload = summary_json(records, suite_name)
        payload["results"] = args.results if args.report is None else args.report
        if candidates is not None:
            payload["candidates"] = candidates
        print_json_last(payload)
    return 1 if all_infrastructure(records) else 0


def candidates_path(results: str) -> str:
    """The candidates file beside a results file: ``runs/x.jsonl`` -> ``runs/x.candidates.jsonl``."""
    path = Path(results)
    return str(path.with_name(path.stem + ".candidates.jsonl"))


def write_candidates(records: list[dict], path: str) -> str:
    """The sampled candidates of the records as a predictions JSONL for ``scratch-gym
    nl2scratch`` (one ``{key, candidates: [{text, logprob_mean}], protocol, samples}`` line per
    item, in record order); returns the path."""
    import json

    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as handle:
        for r in records:
            if r.get("candidates"):
                row = {"key": r.get("item_key", r["task"]), "candidates": r["candidates"]}
                row |= {k: r[k] for k in ("protocol", "samples", "agent") if k in r}
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    return str(out)
