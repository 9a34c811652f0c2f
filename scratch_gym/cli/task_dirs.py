"""``--tasks-dir DIR`` (repeatable) for every command that reads tasks.

The folders are added in front of ``$SCRATCH_GYM_TASKS`` for this process, so that the default
task registry, and the worker processes a command starts, read them too.
"""

from __future__ import annotations

import argparse
import os

from scratch_gym.tasks.registry import TASKS_ENV, check_task_dir

# subcommands (besides `tasks`, whose actions add the option themselves) that read tasks
# (serve: the tasks an exported ScratchWorld folder names)
TASK_COMMANDS = ("run", "eval", "serve")


def add_tasks_dir_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--tasks-dir",
        dest="tasks_dirs",
        action="append",
        default=None,
        metavar="DIR",
        help=f"also read the tasks in DIR (<category>/<task-id>/task.toml); repeatable; "
        f"${TASKS_ENV} lists more ({os.pathsep}-separated)",
    )


def apply_tasks_dirs(args: argparse.Namespace) -> None:
    """Put the command's ``--tasks-dir`` folders in front of ``$SCRATCH_GYM_TASKS``."""
    dirs = getattr(args, "tasks_dirs", None) or []
    if not dirs:
        return
    resolved = [str(check_task_dir(d).resolve()) for d in dirs]
    current = [p for p in os.environ.get(TASKS_ENV, "").split(os.pathsep) if p.strip()]
    os.environ[TASKS_ENV] = os.pathsep.join([*resolved, *current])
