"""The package's layers hold (README, Architecture): ``program/`` is pure Python that imports only
itself, ``agents/`` import nothing from ``editor/``, only ``editor/`` touches Playwright, and nothing
outside ``editor/`` reaches into another object's page (privileged agents read through
``env.unwrapped.privileged()``)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "scratch_gym"

Files = list[tuple[str, ast.Module]]


@functools.cache
def modules() -> Files:
    """Every module of the package, parsed once for all the checks."""
    return [
        (path.relative_to(PACKAGE).as_posix(), ast.parse(path.read_text(), str(path)))
        for path in sorted(PACKAGE.rglob("*.py"))
    ]


def imported(tree: ast.Module) -> list[tuple[int, str]]:
    """Every module name an ``import`` or ``from ... import`` names, with its line."""
    names: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                raise AssertionError(f"line {node.lineno}: relative import; write the full name")
            names.append((node.lineno, node.module or ""))
    return names


# (file relative to the package, imported module name) -> is it a violation?
IMPORT_RULES = {
    "program imports only itself": lambda rel, name: (
        rel.startswith("program/")
        and name.startswith("scratch_gym")
        and not name.startswith("scratch_gym.program")
    ),
    "agents import nothing from the editor": lambda rel, name: (
        rel.startswith("agents/") and name.startswith("scratch_gym.editor")
    ),
    "only the editor touches Playwright": lambda rel, name: (
        not rel.startswith("editor/") and name.split(".")[0] == "playwright"
    ),
}


def import_violations(files: Files, rule: str) -> list[str]:
    return [
        f"{rel}:{line} imports {name}"
        for rel, tree in files
        for line, name in imported(tree)
        if IMPORT_RULES[rule](rel, name)
    ]


def page_reads(files: Files) -> list[str]:
    """Outside ``editor/``: every ``x._page`` where ``x`` is not ``self``."""
    return [
        f"{rel}:{node.lineno}"
        for rel, tree in files
        if not rel.startswith("editor/")
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr == "_page"
        and not (isinstance(node.value, ast.Name) and node.value.id == "self")
    ]


@pytest.mark.parametrize("rule", sorted(IMPORT_RULES))
def test_import_rule_holds(rule: str) -> None:
    assert not import_violations(modules(), rule)


def test_nothing_outside_the_editor_reads_another_objects_page() -> None:
    assert not page_reads(modules())


@pytest.mark.parametrize(
    ("rel", "source", "rule"),
    [
        (
            "program/x.py",
            "from scratch_gym.tasks.schema import Task\n",
            "program imports only itself",
        ),
        (
            "agents/x.py",
            "import scratch_gym.editor.browser\n",
            "agents import nothing from the editor",
        ),
        (
            "runner/x.py",
            "from playwright.sync_api import Page\n",
            "only the editor touches Playwright",
        ),
    ],
)
def test_each_import_rule_finds_a_planted_violation(rel: str, source: str, rule: str) -> None:
    assert import_violations([(rel, ast.parse(source))], rule)


def test_a_planted_page_read_is_found() -> None:
    assert page_reads([("runner/x.py", ast.parse("page = env.unwrapped._page\n"))])
    assert not page_reads([("editor/x.py", ast.parse("page = env.unwrapped._page\n"))])
