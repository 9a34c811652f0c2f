"""``scratch-gym nl2scratch``: the NL2Scratch benchmark (EM, F1, PS, SAC_nl, SAC_ref)."""

from __future__ import annotations

import argparse
import json
import sys

from scratch_gym.nl2scratch.benchmark import format_table, run_benchmark


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds the ``nl2scratch`` subcommand."""
    parser = subparsers.add_parser(
        "nl2scratch",
        help="score NL2Scratch predictions (EM, F1, PS, SAC_nl, SAC_ref) with bootstrap CIs",
        description="Score predictions against an NL2Scratch references JSONL.",
    )
    parser.add_argument("--references", required=True, help="JSONL of {key, nl, pseudocode}")
    parser.add_argument(
        "--predictions",
        required=True,
        help="JSONL of {key, prediction} or {key, candidates: [...]} (SAC reranking)",
    )
    parser.add_argument(
        "--prediction-field",
        default=None,
        help="field holding the program(s); default: prediction, candidates, "
        "predicted_pseudocode, pseudocode (first present)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object last")
    parser.add_argument("--bootstrap", type=int, default=1000, help="bootstrap samples (0: none)")
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    parser.add_argument(
        "--parse-first",
        action="store_true",
        help="when reranking, choose among parser-valid candidates first",
    )
    parser.add_argument("--no-parse", action="store_true", help="skip parse success (PS n/a)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Runs the benchmark; prints the table and, with ``--json``, a JSON object last."""
    try:
        result = run_benchmark(
            args.references,
            args.predictions,
            args.prediction_field,
            check_parse=False if args.no_parse else None,
            parse_first=args.parse_first,
            bootstrap=args.bootstrap,
            seed=args.seed,
            progress=not args.quiet,
        )
    except (OSError, ValueError, KeyError) as exc:
        print(f"nl2scratch: {exc}", file=sys.stderr)
        return 2
    print(format_table(result))
    if args.json:
        print(json.dumps(result.as_json(), ensure_ascii=False))
    return 0
