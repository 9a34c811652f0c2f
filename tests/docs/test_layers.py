"""The package's layers hold (docs/architecture.md, Layers).

**Package layers**, in the manner of an import-linter "layers" contract: :data:`LAYERS` orders
every top-level package and module of ``scratch_gym`` from the pure program model up to the
command line. A package imports only packages of lower layers (the packages of one layer are
independent of each other), function-level and ``TYPE_CHECKING`` imports included; nothing
imports ``cli`` but the entry points above it; the package import graph has no cycles; every
package has a layer. Each rule is shown to catch a violation planted in a tiny fake package.

**Import rules** within the layers: ``program/`` is pure Python that imports only itself,
``agents/`` import nothing from ``editor/``, only ``editor/`` touches Playwright, and nothing
outside ``editor/`` reaches into another object's page (privileged agents read through
``env.unwrapped.privileged()``)."""

from __future__ import annotations

import ast
import functools
from collections import defaultdict
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


# -- package layers ------------------------------------------------------------------------------

ROOT = "scratch_gym"  # the package's own __init__ (it registers the env ids)

# Bottom to top. A package may import packages of lower layers only; the packages of one layer
# are independent. Components are top-level subpackages and modules of scratch_gym.
LAYERS: list[tuple[str, ...]] = [
    ("program",),  # the pure program model: scratchblocks, block catalogue, .sb3, numbering
    # pure helpers: result records and their text forms, paths, progress bars, spaces, the one
    # task vocabulary (task_selection)
    ("records", "paths", "progress", "spaces", "task_selection", "toml_text"),
    ("editor", "ocr"),  # the browser side (the only Playwright user), OCR engines
    ("actions", "observations", "tasks"),  # action and observation models; tasks and their tests
    ("single_drag", "nl2scratch", "reliability"),  # the parts of each benchmark
    # ScratchWorld's checkout: tasks, goldens, evaluation scripts, drag tasks, perception items
    ("scratchworld",),
    ("perception",),  # Visual Perception QA: scenes, questions, data set
    ("envs",),  # every Gym env class (page env + models + scoring) and the registered ids
    (ROOT,),  # the package's own __init__ (it registers the env ids)
    ("agents", "suites"),  # agents; suites select tasks, make envs, judge and table episodes
    ("runner",),  # episodes, jobs, results files, reports
    # demonstrations recorded through the runner; the HTTP service (ScratchWorld's API)
    ("demos", "serve"),
    ("cli",),  # the command line
    ("__main__", "docs"),  # entry points above the command line: python -m, the docs generator
]

# The entry points allowed to import cli (all in the layer above it).
CLI_IMPORTERS = frozenset({"__main__", "docs"})

# (importer, imported) package edges allowed against the layers, each with the reason. Empty: the
# cycles of issue 34 are gone. An entry must still be needed (a test fails on a stale one), so
# the list cannot grow or linger unseen.
ALLOWED_EDGES: dict[tuple[str, str], str] = {}

Graph = dict[tuple[str, str], list[str]]


def component_of(rel: Path) -> str:
    """The component a file (relative to the package) belongs to."""
    if len(rel.parts) > 1:
        return rel.parts[0]
    return ROOT if rel.stem == "__init__" else rel.stem


def components(package: Path) -> set[str]:
    """The package's top-level subpackages and modules (every folder holding Python), its root."""
    return {component_of(p.relative_to(package)) for p in package.rglob("*.py")} | {ROOT}


def imported_names(tree: ast.Module) -> list[tuple[int, str]]:
    """Every name an import loads, with its line: ``from a import b`` names ``a.b`` (``b`` may
    be a module), anywhere in the file (functions, ``TYPE_CHECKING``)."""
    names: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                raise AssertionError(f"line {node.lineno}: relative import; write the full name")
            names += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return names


def import_graph(package: Path) -> Graph:
    """(importer, imported) component -> where: ``file:line imports name``, for every import of
    one component of the package by another."""
    known = components(package)
    graph: Graph = defaultdict(list)
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package)
        source = component_of(rel)
        seen: set[tuple[int, str]] = set()
        for line, name in imported_names(ast.parse(path.read_text(), str(path))):
            parts = name.split(".")
            if parts[0] != ROOT:
                continue
            target = parts[1] if len(parts) > 1 and parts[1] in known else ROOT
            if target != source and (line, target) not in seen:
                seen.add((line, target))
                graph[(source, target)].append(f"{rel.as_posix()}:{line} imports {name}")
    return dict(graph)


def layer_of(layers: list[tuple[str, ...]]) -> dict[str, int]:
    return {name: i for i, layer in enumerate(layers) for name in layer}


def layer_violations(
    graph: Graph, layers: list[tuple[str, ...]], allowed: dict[tuple[str, str], str]
) -> list[str]:
    """Imports of a package of the same or a higher layer (packages without a layer are
    :func:`unlayered`'s)."""
    level = layer_of(layers)
    return [
        f"{where} ({a}, layer {level[a]}, may not import {b}, layer {level[b]})"
        for (a, b), places in sorted(graph.items())
        if a in level and b in level and level[b] >= level[a] and (a, b) not in allowed
        for where in places
    ]


def cli_imports(graph: Graph) -> list[str]:
    """Imports of ``cli`` from anywhere but the entry points allowed to."""
    return [
        where
        for (a, b), places in sorted(graph.items())
        if b == "cli" and a not in CLI_IMPORTERS
        for where in places
    ]


def unlayered(package: Path, layers: list[tuple[str, ...]]) -> list[str]:
    return sorted(components(package) - set(layer_of(layers)))


def cycles(graph: Graph) -> list[list[str]]:
    """The package import graph's strongly connected components of more than one package."""
    edges: dict[str, set[str]] = defaultdict(set)
    for a, b in graph:
        edges[a].add(b)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(set(edges)):
        if v not in index:
            visit(v)
    return sorted(found)


@functools.cache
def package_graph() -> Graph:
    return import_graph(PACKAGE)


def test_every_package_has_a_layer() -> None:
    assert not unlayered(PACKAGE, LAYERS)


def test_no_package_imports_its_own_or_a_higher_layer() -> None:
    assert not layer_violations(package_graph(), LAYERS, ALLOWED_EDGES)


def test_nothing_imports_the_cli() -> None:
    assert not cli_imports(package_graph())


def test_the_package_import_graph_has_no_cycles() -> None:
    assert not cycles(package_graph())


def test_every_allowed_edge_is_still_needed() -> None:
    assert not [edge for edge in ALLOWED_EDGES if edge not in package_graph()]


def fake_package(root: Path, files: dict[str, str]) -> Path:
    """A tiny ``scratch_gym`` under ``root``: ``files`` (path -> source), packages' __init__s."""
    package = root / ROOT
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    for rel, source in files.items():
        path = package / rel
        for parent in reversed(path.relative_to(package).parents[:-1]):
            (package / parent).mkdir(exist_ok=True)
            (package / parent / "__init__.py").touch()
        path.write_text(source)
    return package


@pytest.mark.parametrize(
    ("files", "found"),
    [
        (  # a function-level import of a higher layer
            {
                "program/x.py": "def f():\n    from scratch_gym.editor.page import EditorPage\n",
                "editor/page.py": "",
            },
            "program/x.py:2 imports scratch_gym.editor.page",
        ),
        (  # a TYPE_CHECKING import of a higher layer
            {
                "tasks/x.py": "if TYPE_CHECKING:\n    import scratch_gym.runner.jobs\n",
                "runner/jobs.py": "",
            },
            "tasks/x.py:2 imports scratch_gym.runner.jobs",
        ),
        (  # a package of the same layer (independent), through ``from scratch_gym import``
            {"actions/x.py": "from scratch_gym import observations\n", "observations/y.py": ""},
            "actions/x.py:1 imports scratch_gym.observations",
        ),
        (  # a top-level module of a higher layer
            {"tasks/x.py": "import scratch_gym.docs\n", "docs.py": ""},
            "tasks/x.py:1 imports scratch_gym.docs",
        ),
    ],
)
def test_a_planted_layer_violation_is_found(
    tmp_path: Path, files: dict[str, str], found: str
) -> None:
    package = fake_package(tmp_path, files)
    graph = import_graph(package)
    assert [v for v in layer_violations(graph, LAYERS, {}) if v.startswith(found)]
    (edge,) = graph
    assert not layer_violations(graph, LAYERS, {edge: "planted"})  # an allowed edge passes


def test_lower_layers_may_be_imported(tmp_path: Path) -> None:
    package = fake_package(
        tmp_path, {"runner/x.py": "from scratch_gym.records.status import SUCCESS\n"}
    )
    assert not layer_violations(import_graph(package), LAYERS, {})


@pytest.mark.parametrize(
    "source", ["from scratch_gym.cli.output import table\n", "from scratch_gym import cli\n"]
)
def test_a_planted_cli_import_is_found(tmp_path: Path, source: str) -> None:
    package = fake_package(tmp_path, {"runner/x.py": source, "cli/output.py": ""})
    (found,) = cli_imports(import_graph(package))
    assert found.startswith("runner/x.py:1 imports scratch_gym.cli")
    entry = fake_package(tmp_path / "entry", {"__main__.py": source, "cli/output.py": ""})
    assert not cli_imports(import_graph(entry))


def test_a_planted_cycle_is_found(tmp_path: Path) -> None:
    package = fake_package(
        tmp_path,
        {
            "actions/x.py": "def f():\n    import scratch_gym.observations.y\n",
            "observations/y.py": "from scratch_gym.tasks import z\n",
            "tasks/z.py": "from scratch_gym.actions.x import f\n",
            "program/p.py": "from scratch_gym.records import r\n",  # not on the cycle
            "records/r.py": "",
        },
    )
    assert cycles(import_graph(package)) == [["actions", "observations", "tasks"]]


def test_a_planted_package_without_a_layer_is_found(tmp_path: Path) -> None:
    package = fake_package(tmp_path, {"newthing/x.py": "", "tools.py": "", "program/y.py": ""})
    assert unlayered(package, LAYERS) == ["newthing", "tools"]
