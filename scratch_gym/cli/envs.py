"""``scratch-gym envs``: list the registered environment ids."""

from __future__ import annotations

import argparse

from scratch_gym.cli.output import print_json_last
from scratch_gym.envs.registration import ENV_IDS
from scratch_gym.records.text import table


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("envs", help="list the registered environment ids")
    p.add_argument("--json", action="store_true", help="print one JSON object last")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    rows = [(env_id, spec.doc) for env_id, spec in ENV_IDS.items()]
    print(table(["id", "what"], rows))
    if args.json:
        print_json_last({"envs": [r[0] for r in rows]})
    return 0
