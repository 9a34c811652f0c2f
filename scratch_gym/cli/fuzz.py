"""``scratch-gym fuzz``: random and adversarial actions against an environment."""

from __future__ import annotations

import argparse
import random

import gymnasium as gym

from scratch_gym.cli.arguments import positive_int
from scratch_gym.cli.output import print_json_last
from scratch_gym.progress import progress_bar
from scratch_gym.records.text import table
from scratch_gym.reliability.fuzz import (
    composite_actions,
    composite_is_valid,
    fuzz,
    primitive_actions,
    primitive_is_valid,
)

GENERATORS = {
    "ScratchWorld-Primitive-v0": (primitive_actions, primitive_is_valid),
    "ScratchWorld-Composite-v0": (composite_actions, composite_is_valid),
}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("fuzz", help="fuzz an agent-facing action space")
    p.add_argument("--env", default="ScratchWorld-Primitive-v0", choices=sorted(GENERATORS))
    p.add_argument("--n", type=positive_int, default=10_000, help="number of actions")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print one JSON object last")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import scratch_gym  # noqa: F401

    generate, is_valid = GENERATORS[args.env]
    env = gym.make(args.env)
    try:
        with progress_bar(total=args.n, desc=f"fuzz {args.env}", unit="action") as bar:
            report = fuzz(
                env,
                generate(random.Random(args.seed)),
                args.n,
                is_valid=is_valid,
                progress=bar.update,
            )
    finally:
        env.close()
    summary = report.summary()
    print(table(["check", "value"], list(summary.items())))
    for title, items in (
        ("crashes", report.crashes),
        ("invalid actions without an error", report.missing_errors),
        ("invalid actions that changed the editor", report.state_changed_by_invalid),
        ("hangs", report.hangs),
    ):
        for item in items[:10]:
            print(f"{title}: {item}")
    if args.json:
        print_json_last({"env": args.env, "ok": report.ok, **summary})
    return 0 if report.ok else 1
