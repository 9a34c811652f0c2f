"""The ``scratch-gym`` command (identical to ``python -m scratch_gym``).

Each subcommand lives in its own module with ``register(subparsers)`` and ``run(args) -> int``.
With ``--json`` a subcommand prints one JSON object as its last line.
"""

from __future__ import annotations

import argparse
import importlib
import sys

SUBCOMMANDS = (
    "install",
    "envs",
    "run",
    "eval",
    "demos",
    "tasks",
    "single-drag",
    "nl2scratch",
    "perception",
    "fuzz",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scratch-gym", description="The real Scratch 3 editor as Gymnasium environments."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    from scratch_gym.cli.task_dirs import TASK_COMMANDS, add_tasks_dir_argument

    for name in SUBCOMMANDS:
        module = importlib.import_module(f"scratch_gym.cli.{name.replace('-', '_')}")
        module.register(sub)
        if name in TASK_COMMANDS:
            add_tasks_dir_argument(sub.choices[name])
        if sub.choices[name].get_default("handler") is None:
            sub.choices[name].set_defaults(handler=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from scratch_gym.cli.task_dirs import apply_tasks_dirs
    from scratch_gym.tasks.registry import UnknownTaskError
    from scratch_gym.tasks.schema import TaskError

    try:
        apply_tasks_dirs(args)
        return int(args.handler(args) or 0)
    except (TaskError, UnknownTaskError) as exc:  # a bad task file or id: say which, no traceback
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
