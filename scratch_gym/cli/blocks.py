"""``scratch-gym blocks``: the block reference of composite mode, from the block catalogue.

    scratch-gym blocks                      # every block add_block makes, one table per category
    scratch-gym blocks --category control   # one category
    scratch-gym blocks --json               # one JSON object: categories, count, blocks

The same reference is ``docs/blocks.md``; an LLM agent's composite prompt can carry it
(``make_agent("llm", "composite", block_reference=True)``).
"""

from __future__ import annotations

import argparse

from scratch_gym.cli.output import UsageError, print_json_last
from scratch_gym.records.text import table


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "blocks",
        help="the block reference: opcode, scratchblocks text, fields and inputs of every block",
        description="The blocks composite mode's add_block makes, from the block catalogue: "
        "opcode, category, shape, scratchblocks text, fields, inputs and add_block options.",
    )
    p.add_argument("--category", default=None, help="one category (default: all)")
    p.add_argument("--json", action="store_true", help="print one JSON object (all fields)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from scratch_gym.actions.block_reference import block_row, blocks, categories, reference_json

    try:
        specs = blocks(args.category)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print_json_last(reference_json(args.category))
        return 0
    headers = ["opcode", "scratchblocks", "shape", "fields", "inputs", "add_block options"]
    for category in [args.category] if args.category else categories():
        rows = [block_row(s) for s in specs if s.category == category]
        if rows:
            print(f"{category} ({len(rows)})")
            print(table(headers, rows))
            print()
    print(f"{len(specs)} blocks; docs/blocks.md has the same reference")
    return 0
