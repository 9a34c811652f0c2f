"""The ``scratch-gym`` command (identical to ``python -m scratch_gym``).

Each subcommand lives in its own module with ``register(subparsers)`` and ``run(args) -> int``.
With ``--json`` a subcommand prints one JSON object as its last line (valid JSON: ``null`` for a
figure that is not a number).

Errors have one style: ``error: <what> (<what is allowed>)``, one line on stderr, exit code 2 for
usage errors (a bad argument, a missing or unreadable path, a corrupt file), never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import NoReturn

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
    "blocks",
    "serve",
)


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line: ``error: <command>: <message>``."""

    def error(self, message: str) -> NoReturn:
        from scratch_gym.cli.output import USAGE_EXIT, print_error

        print_error(f"{self.prog}: {message}")
        sys.exit(USAGE_EXIT)


def build_parser() -> argparse.ArgumentParser:
    from scratch_gym import __version__

    parser = Parser(
        prog="scratch-gym", description="The real Scratch 3 editor as Gymnasium environments."
    )
    parser.add_argument("--version", action="version", version=f"scratch-gym {__version__}")
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
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:  # name the subcommand they were given to
            sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
            sub.choices[args.command].error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exc:  # a usage error (printed), --help or --version: the exit code
        return exc.code if isinstance(exc.code, int) else 2
    from scratch_gym.cli.output import UsageError, os_error_message, print_error
    from scratch_gym.cli.task_dirs import apply_tasks_dirs
    from scratch_gym.tasks.registry import UnknownTaskError
    from scratch_gym.tasks.schema import TaskError

    try:
        apply_tasks_dirs(args)
        return int(args.handler(args) or 0)
    except (TaskError, UnknownTaskError, UsageError) as exc:  # say which, no traceback
        return print_error(str(exc))
    except (FileNotFoundError, FileExistsError, NotADirectoryError, IsADirectoryError,
            PermissionError) as exc:  # fmt: skip
        return print_error(os_error_message(exc))  # a path the user gave that is not there


if __name__ == "__main__":
    sys.exit(main())
