"""``scratch-gym nl2scratch``: the NL2Scratch benchmark (EM, F1, PS, SAC_nl, SAC_ref)."""

from __future__ import annotations

import argparse

from scratch_gym.cli.output import os_error_message, print_error, print_json_last
from scratch_gym.nl2scratch.figures import (
    format_length_table,
    format_slot_table,
    metrics_by_length,
    plot_figures,
    slot_alignment,
)
from scratch_gym.nl2scratch.inputs import ReferenceFileError
from scratch_gym.nl2scratch.protocols import PROTOCOLS, get_protocol
from scratch_gym.nl2scratch.scoring import format_table, run_benchmark, write_items
from scratch_gym.nl2scratch.selection import STRATEGIES, SelectionError


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds the ``nl2scratch`` subcommand."""
    parser = subparsers.add_parser(
        "nl2scratch",
        help="score NL2Scratch predictions (EM, F1, PS, SAC_nl, SAC_ref) with bootstrap CIs",
        description="Score predictions against an NL2Scratch references JSONL. The default "
        "protocol 'paper' gives the published scorer's numbers item by item; 'robust' is "
        "scratch-gym's own variant (see docs/nl2scratch.md).",
    )
    parser.add_argument("--references", required=True, help="JSONL of {key, nl, pseudocode}")
    parser.add_argument(
        "--predictions",
        required=True,
        help="JSONL of {key, prediction} or {key, candidates: [...]} (selection over candidates)",
    )
    parser.add_argument(
        "--prediction-field",
        default=None,
        help="field holding the program(s); default: prediction, candidates, "
        "predicted_pseudocode, pseudocode (first present)",
    )
    parser.add_argument(
        "--protocol", choices=PROTOCOLS, default="paper", help="scoring protocol (default: paper)"
    )
    post = parser.add_mutually_exclusive_group()
    post.add_argument(
        "--no-postprocess",
        dest="postprocess",
        action="store_false",
        default=None,
        help="score raw model outputs (paper default: post-processed, as the paper's README does)",
    )
    post.add_argument(
        "--postprocess", dest="postprocess", action="store_true", help="post-process outputs"
    )
    parser.add_argument(
        "--ref-loop-slots",
        action="store_true",
        help="paper protocol: count loop slots in SAC_ref (the paper's 20-shot row was computed so)",
    )
    parser.add_argument(
        "--select",
        choices=STRATEGIES,
        default="sac",
        help="strategy choosing among candidates (default: sac)",
    )
    parser.add_argument(
        "--parse-first", action="store_true", help="same as --select parse_sac (kept for scripts)"
    )
    parser.add_argument(
        "--no-strategy-table",
        action="store_true",
        help="with candidates, do not also score every selection strategy",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object last")
    parser.add_argument("--bootstrap", type=int, default=1000, help="bootstrap samples (0: none)")
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    parser.add_argument("--no-parse", action="store_true", help="skip parse success (PS n/a)")
    parser.add_argument("--figures", action="store_true", help="print the Figure 4 and 6 tables")
    parser.add_argument("--plot", metavar="DIR", default=None, help="write Figure 4 and 6 PNGs")
    parser.add_argument("--items", metavar="PATH", default=None, help="write per-example JSONL")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Runs the benchmark; prints the table and, with ``--json``, a JSON object last."""
    if args.bootstrap < 0:
        return print_error(f"--bootstrap must be 0 or more (got {args.bootstrap})")
    try:
        protocol = get_protocol(args.protocol, args.postprocess, args.ref_loop_slots)
        result = run_benchmark(
            args.references,
            args.predictions,
            args.prediction_field,
            protocol=protocol,
            check_parse=False if args.no_parse else None,
            strategy="parse_sac" if args.parse_first else args.select,
            compare_strategies=not args.no_strategy_table,
            bootstrap=args.bootstrap,
            seed=args.seed,
            progress=not args.quiet,
        )
    except OSError as exc:
        return print_error(os_error_message(exc))
    except (ReferenceFileError, SelectionError, ValueError) as exc:
        return print_error(str(exc))
    print(format_table(result))
    payload = result.as_json()
    if args.figures or args.plot:
        slots, lengths = slot_alignment(result), metrics_by_length(result)
        payload["figure4_slots"], payload["figure6_by_length"] = slots, lengths
        print()
        print(format_slot_table(slots))
        print()
        print(format_length_table(lengths))
    if args.plot:
        try:
            paths = plot_figures(result, args.plot)
        except (OSError, ImportError) as exc:
            return print_error(f"cannot write plots to {args.plot}: {exc}")
        print("plots: " + ", ".join(str(p) for p in paths))
        payload["plots"] = [str(p) for p in paths]
    if args.items:
        try:
            write_items(result, args.items)
        except OSError as exc:
            return print_error(f"cannot write {args.items}: {os_error_message(exc)}")
    if args.json:
        print_json_last(payload, sort_keys=False)  # the strategies in table order
    return 0
