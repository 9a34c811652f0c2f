"""``single_drag``'s subpackages import downward and the drag envs never import torch
(docs/architecture.md, Layers).

:data:`ORDER` lists ``single_drag``'s parts bottom to top: the task data, the shared bottoms
(modules at the top level), feasible regions, the generator, the environment's parts and
metrics (top-level modules; the env classes live in ``scratch_gym.envs``), the fast path,
training. A part imports its own layer and lower ones only
(function-level and ``TYPE_CHECKING`` imports included), the import graph of the parts has no
cycle, and every part has a layer; each rule is shown to catch a violation planted in a fake
package. Importing every module outside ``training``, and the drag envs of ``scratch_gym.envs``,
in a fresh interpreter loads no torch."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections import defaultdict
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

from tests.docs.test_layers import imported_names, layer_of

PACKAGE = Path(__file__).resolve().parents[2] / "scratch_gym" / "single_drag"
NAME = "scratch_gym.single_drag"
ROOT = "__init__"  # single_drag's own __init__: imports nothing of it

# Bottom to top; the parts of one layer may import each other (the graph stays acyclic).
ORDER: list[tuple[str, ...]] = [
    (ROOT,),
    ("tasks",),  # the task record, regions data, kinds, instructions
    ("drag_model", "editor_drag", "tokens", "rl_spaces"),  # the shared bottoms
    ("feasible",),  # feasible regions: geometry, geometric and probed regions, the cache
    ("generation",),  # the task generator
    ("env_parts", "metrics"),  # the real-editor env's action and observation models, Pass@k
    ("fast",),  # snapshots, pools, the vectorised environment, calibration
    ("training",),  # the policy (torch), the heuristic, the curriculum
]

Graph = dict[tuple[str, str], list[str]]


def part_of(rel: Path) -> str:
    """The part a file (relative to ``single_drag``) belongs to: its subpackage or module."""
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def parts(package: Path) -> set[str]:
    return {part_of(p.relative_to(package)) for p in package.rglob("*.py")}


def import_graph(package: Path) -> Graph:
    """(importer, imported) part -> ``file:line imports name``, for each import of one part of
    ``single_drag`` by another (``import scratch_gym.single_drag`` itself names its root)."""
    known = parts(package)
    graph: Graph = defaultdict(list)
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package)
        source = part_of(rel)
        for line, name in imported_names(ast.parse(path.read_text(), str(path))):
            if name != NAME and not name.startswith(NAME + "."):
                continue
            rest = name[len(NAME) + 1 :].split(".")
            target = rest[0] if rest[0] in known else ROOT
            if target != source:
                graph[(source, target)].append(f"{rel.as_posix()}:{line} imports {name}")
    return dict(graph)


def upward_imports(graph: Graph, order: list[tuple[str, ...]]) -> list[str]:
    level = layer_of(order)
    return [
        f"{where} ({a}, layer {level[a]}, may not import {b}, layer {level[b]})"
        for (a, b), places in sorted(graph.items())
        if a in level and b in level and level[b] > level[a]
        for where in places
    ]


def cycle(graph: Graph) -> list[str]:
    """A cycle of the parts' import graph, or nothing."""
    sorter = TopologicalSorter({a: set() for a, _ in graph})
    for a, b in graph:
        sorter.add(a, b)
    try:
        sorter.prepare()
    except CycleError as exc:
        return list(exc.args[1])
    return []


def unlayered(package: Path, order: list[tuple[str, ...]]) -> list[str]:
    return sorted(parts(package) - set(layer_of(order)))


def test_every_part_has_a_layer() -> None:
    assert not unlayered(PACKAGE, ORDER)


def test_no_part_imports_a_higher_layer() -> None:
    assert not upward_imports(import_graph(PACKAGE), ORDER)


def test_the_parts_import_graph_has_no_cycle() -> None:
    assert not cycle(import_graph(PACKAGE))


def fake_package(root: Path, files: dict[str, str]) -> Path:
    """A tiny ``scratch_gym/single_drag`` under ``root``: ``files`` (path -> source)."""
    package = root / "scratch_gym" / "single_drag"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    for rel, source in files.items():
        path = package / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        (path.parent / "__init__.py").touch()
        path.write_text(source)
    return package


@pytest.mark.parametrize(
    ("files", "found"),
    [
        (  # a function-level import of the fast path by feasible regions
            {
                "feasible/probe.py": (
                    "def f():\n    from scratch_gym.single_drag.fast.snapshot import capture\n"
                ),
                "fast/snapshot.py": "",
            },
            "feasible/probe.py:2 imports scratch_gym.single_drag.fast.snapshot.capture",
        ),
        (  # the env parts importing training, through ``from ... import``
            {
                "env_parts.py": "from scratch_gym.single_drag import training\n",
                "training/policy.py": "",
            },
            "env_parts.py:1 imports scratch_gym.single_drag.training",
        ),
        (  # a task module importing a shared bottom
            {"tasks/task.py": "import scratch_gym.single_drag.drag_model\n", "drag_model.py": ""},
            "tasks/task.py:1 imports scratch_gym.single_drag.drag_model",
        ),
    ],
)
def test_a_planted_upward_import_is_found(tmp_path: Path, files: dict[str, str], found: str):
    graph = import_graph(fake_package(tmp_path, files))
    assert [v for v in upward_imports(graph, ORDER) if v.startswith(found)]


def test_downward_and_same_layer_imports_pass(tmp_path: Path) -> None:
    package = fake_package(
        tmp_path,
        {
            "fast/pool.py": "from scratch_gym.single_drag.feasible.capture import capture_drag\n",
            "feasible/capture.py": "from scratch_gym.single_drag.tasks.task import DragTask\n",
            "tasks/task.py": "",
            "rl_spaces.py": "from scratch_gym.single_drag import tokens\n",
            "tokens.py": "",
        },
    )
    graph = import_graph(package)
    assert len(graph) == 3
    assert not upward_imports(graph, ORDER)
    assert not cycle(graph)


def test_a_planted_cycle_is_found(tmp_path: Path) -> None:
    package = fake_package(
        tmp_path,
        {
            "env_parts.py": "def f():\n    import scratch_gym.single_drag.metrics\n",
            "metrics.py": "from scratch_gym.single_drag.env_parts import read_elements\n",
            "tasks/task.py": "",  # not on the cycle
        },
    )
    assert sorted(set(cycle(import_graph(package)))) == ["env_parts", "metrics"]


def test_a_planted_part_without_a_layer_is_found(tmp_path: Path) -> None:
    package = fake_package(tmp_path, {"extras/x.py": "", "helpers.py": "", "tasks/t.py": ""})
    assert unlayered(package, ORDER) == ["extras", "helpers"]


def modules_without_training() -> list[str]:
    """Every module of ``single_drag`` outside ``training``, packages included, and the drag envs."""
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).with_suffix("")
        if rel.parts[0] == "training":
            continue
        dotted = [p for p in rel.parts if p != "__init__"]
        names.append(".".join([NAME, *dotted]))
    return [*names, "scratch_gym.envs.single_drag", "scratch_gym.envs.single_drag_fast"]


def test_the_environments_never_import_torch() -> None:
    names = modules_without_training()
    assert {f"{NAME}.env_parts", f"{NAME}.fast.pool", f"{NAME}.tasks", f"{NAME}.feasible"} <= set(
        names
    )
    assert f"{NAME}.generation.generator" in names
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'torch'"
        f" or m.startswith('{NAME}.training')))\n"
    )
    repo = str(PACKAGE.parents[1])  # this checkout's package, whatever is installed
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [repo, os.environ.get("PYTHONPATH")])),
    }
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env=env,
    )
    assert out.stdout.strip() == "[]"
