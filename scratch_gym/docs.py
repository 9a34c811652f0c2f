"""Generate the docs' reference sections from the package's single sources of truth.

``python -m scratch_gym.docs`` rewrites every ``<!-- BEGIN GENERATED: name -->`` ...
``<!-- END GENERATED: name -->`` section of README.md (the table of ids) and of the docs pages in
:data:`GUIDES`: docs/actions.md (the action tables, from the catalogues), docs/tasks-and-rewards.md
(one task of each category), docs/write-your-own-task.md (the test API reference, from its
docstrings) and docs/cli.md (every subcommand's ``--help``, from the argument parsers). It writes
``docs/tasks.md`` (the task table, from the task files), ``docs/environments.md`` (each
environment class's documentation, from its docstrings) and ``docs/blocks.md`` (the block
reference, from the block catalogue); ``--check`` fails when one is stale (a test runs it).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path

from scratch_gym.actions.primitive import actions_markdown
from scratch_gym.envs.registration import ENV_IDS


def env_ids_markdown() -> str:
    rows = ["| id | for |", "| --- | --- |"]
    rows.extend(f"| `{env_id}` | {spec.doc} |" for env_id, spec in ENV_IDS.items())
    return "\n".join(rows)


ENV_DOC_SECTIONS = (
    "Description",
    "Action Space",
    "Observation Space",
    "Rewards",
    "Starting State",
    "Episode End",
    "Arguments",
)


def env_doc_sections(cls: type) -> dict[str, str]:
    """The ``## <section>`` parts of an environment class's docstring, Gymnasium's layout:
    every section of ENV_DOC_SECTIONS, in that order. Raises ValueError naming the class and
    what is missing or out of place."""
    import inspect

    doc = inspect.getdoc(cls) or ""
    parts = re.split(r"^## (.+)$", doc, flags=re.MULTILINE)
    found = [name.strip() for name in parts[1::2]]
    missing = [name for name in ENV_DOC_SECTIONS if name not in found]
    if missing:
        raise ValueError(f"{cls.__name__}'s docstring lacks the section(s) {', '.join(missing)}")
    if found != list(ENV_DOC_SECTIONS):
        raise ValueError(
            f"{cls.__name__}'s docstring has the sections {found}; "
            f"Gymnasium's layout is {list(ENV_DOC_SECTIONS)}"
        )
    return {name.strip(): body.strip() for name, body in zip(parts[1::2], parts[2::2], strict=True)}


def environments_markdown() -> str:
    """docs/environments.md: each environment class with its ids and its docstring's sections
    (:func:`env_doc_sections`)."""
    import importlib
    import inspect

    by_class: dict[str, list[str]] = {}
    for env_id, spec in ENV_IDS.items():
        by_class.setdefault(spec.entry_point, []).append(env_id)
    out = [ENVIRONMENTS_DOC_HEADER]
    for entry_point, ids in by_class.items():
        module_name, class_name = entry_point.split(":")
        cls = getattr(importlib.import_module(module_name), class_name)
        out.append(f"## `{class_name}` (`{module_name}`)\n")
        out.append("Registered as " + ", ".join(f"`{i}`" for i in ids) + ".\n")
        summary = (inspect.getdoc(cls) or "").split("\n\n")[0].strip()
        out.append(summary + "\n")
        for name, body in env_doc_sections(cls).items():
            out.append(f"### {name}\n\n{body}\n")
    return "\n".join(out)


def tasks_table_markdown() -> str:
    from scratch_gym.tasks import TaskRegistry
    from scratch_gym.tasks.stats import tasks_markdown

    return tasks_markdown(TaskRegistry().list())  # the shipped suite only, not $SCRATCH_GYM_TASKS


EXAMPLE_TASKS = ("say-hello", "fix-bounce", "add-jump", "sum-to-n")


def task_examples_markdown() -> str:
    """One task of each category: its instruction and its tests."""
    from scratch_gym.tasks import load_task

    out = []
    for task_id in EXAMPLE_TASKS:
        task = load_task(task_id)
        instruction = " ".join(task.instruction.split())
        out.append(f"**{task.category}: `{task.id}`**: {instruction}")
        out.append(f"Tests: {', '.join(f'`{n}`' for n in task.test_names)}.")
        out.append("")
    return "\n".join(out)


def composite_markdown() -> str:
    from scratch_gym.actions.composite_catalogue import composite_actions_markdown

    return composite_actions_markdown()


def blocks_markdown() -> str:
    from scratch_gym.actions.block_reference import reference_markdown

    return reference_markdown()


def api_reference_markdown() -> str:
    from scratch_gym.tasks.api_docs import api_reference_markdown as reference

    return reference()


CLI_HELP_COLUMNS = 100  # the width --help is wrapped to in docs/cli.md, whatever the terminal


def cli_parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    """``scratch-gym`` and every subcommand's parser, depth first, with its command line."""
    from scratch_gym.cli import build_parser

    def walk(parser: argparse.ArgumentParser, command: str):
        yield command, parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    yield from walk(sub, f"{command} {name}")

    return list(walk(build_parser(), "scratch-gym"))


def cli_help_markdown() -> str:
    """docs/cli.md's reference: each command's ``--help``, wrapped at :data:`CLI_HELP_COLUMNS`."""
    import os

    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(CLI_HELP_COLUMNS)  # argparse wraps to the terminal's width
    try:
        out = []
        for command, parser in cli_parsers():
            out.append(f"### `{command}`\n\n```text\n{parser.format_help().rstrip()}\n```\n")
        return "\n".join(out)
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old


SECTIONS: dict[str, Callable[[], str]] = {
    "env-ids": env_ids_markdown,
    "primitive-actions": actions_markdown,
    "composite-actions": composite_markdown,
    "task-examples": task_examples_markdown,
    "test-api": api_reference_markdown,
    "cli-help": cli_help_markdown,
}
GUIDES = (  # docs/ pages with generated sections
    "actions.md",
    "tasks-and-rewards.md",
    "write-your-own-task.md",
    "cli.md",
)
ENVIRONMENTS_DOC_HEADER = (
    "# Environments\n\nGenerated from the environment classes' docstrings by "
    "`python -m scratch_gym.docs`: what each registered id is built from, its spaces, rewards, "
    "starting state, episode end and arguments.\n"
)
TASKS_DOC_HEADER = (
    "# Task suite\n\nGenerated from the task files by `python -m scratch_gym.docs`.\n\n"
)

_PATTERN = re.compile(
    r"(<!-- BEGIN GENERATED: (?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- END GENERATED: (?P=name) -->)",
    re.S,
)


def render(text: str) -> str:
    """``text`` with every generated section replaced by its current content."""

    def replace(match: re.Match[str]) -> str:
        name = match["name"]
        if name not in SECTIONS:
            raise KeyError(f"unknown generated section {name!r}")
        return f"{match.group(1)}{SECTIONS[name]().rstrip()}\n{match.group(4)}"

    return _PATTERN.sub(replace, text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="regenerate the README's and docs' generated sections")
    ap.add_argument("--readme", default=str(Path(__file__).resolve().parent.parent / "README.md"))
    ap.add_argument("--check", action="store_true", help="fail if a section is stale")
    args = ap.parse_args(argv)
    path = Path(args.readme)
    tasks_doc = path.parent / "docs" / "tasks.md"
    wanted = {
        path: render(path.read_text()),
        tasks_doc: TASKS_DOC_HEADER + tasks_table_markdown() + "\n",
        path.parent / "docs" / "environments.md": environments_markdown(),
        path.parent / "docs" / "blocks.md": blocks_markdown(),
    }
    for guide in GUIDES:
        wanted[path.parent / "docs" / guide] = render((path.parent / "docs" / guide).read_text())
    stale = [p for p, text in wanted.items() if not p.is_file() or p.read_text() != text]
    if args.check:
        for p in stale:
            print(f"{p} is stale; run python -m scratch_gym.docs")
        return 1 if stale else 0
    for p in stale:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(wanted[p])
    return 0


if __name__ == "__main__":
    sys.exit(main())
