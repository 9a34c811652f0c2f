"""Only ``editor/`` names the page's JavaScript functions (docs/architecture.md, The bridge).

**Callers**: no module of ``scratch_gym`` outside ``editor/`` calls ``.call(...)`` or
``.call_within(...)`` with a string, nor holds a bridge function's name in a string at all; they
call the typed methods of ``editor/bridge.py`` (``page.bridge``, ``channel.bridge``).

**The facade**: each public method of ``editor/bridge.py`` calls exactly one JavaScript function,
registered with ``SG.register('...')`` in ``web/scratch-editor/bridge/*.js`` and named after it,
so renaming a JavaScript function fails here. Each rule is shown to catch a planted violation;
a recording transport shows the arguments each method sends.
"""

from __future__ import annotations

import ast
import base64
import functools
import re
from pathlib import Path
from typing import Any

import pytest

from scratch_gym.editor.bridge import Bridge, ReadBridge

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "scratch_gym"
FACADE = PACKAGE / "editor" / "bridge.py"
REGISTER = re.compile(r"""SG\.register\(\s*['"]([^'"]+)['"]""")
# Bridge names that are also ordinary strings: the project file inside an .sb3.
NOT_ONLY_BRIDGE_NAMES = frozenset({"project.json"})
CALLS = frozenset({"call", "call_within", "_call", "_call_json"})

Files = list[tuple[str, ast.Module]]


@functools.cache
def registered() -> frozenset[str]:
    """Every bridge function the page's JavaScript registers."""
    names: set[str] = set()
    for path in sorted((ROOT / "web" / "scratch-editor" / "bridge").glob("*.js")):
        names.update(REGISTER.findall(path.read_text()))
    return frozenset(names)


@functools.cache
def outside_editor() -> Files:
    return [
        (path.relative_to(PACKAGE).as_posix(), ast.parse(path.read_text(), str(path)))
        for path in sorted(PACKAGE.rglob("*.py"))
        if not path.relative_to(PACKAGE).as_posix().startswith("editor/")
    ]


def string_calls(files: Files) -> list[str]:
    """Every ``x.call("...")`` / ``x.call_within("...", ...)``: a function named by a string."""
    return [
        f"{rel}:{node.lineno}"
        for rel, tree in files
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("call", "call_within")
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ]


def named_functions(files: Files) -> list[str]:
    """Every string that is a bridge function's name (held in a variable, passed to a helper)."""
    names = registered() - NOT_ONLY_BRIDGE_NAMES
    return [
        f"{rel}:{node.lineno} {node.value!r}"
        for rel, tree in files
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in names
    ]


def test_registered_names_are_found() -> None:
    assert {"vm.blocks", "elements.list", "eval.run", "single_drag.hitTest"} <= registered()


def test_no_module_outside_the_editor_calls_the_bridge_by_name() -> None:
    assert not string_calls(outside_editor())


def test_no_module_outside_the_editor_holds_a_bridge_functions_name() -> None:
    assert not named_functions(outside_editor())


@pytest.mark.parametrize(
    "source",
    [
        'page.call("vm.blocks", {"target": "Sprite1"})\n',
        "self.page.call_within('eval.run', {}, 1.0)\n",
        'channel.call("something.new")\n',
    ],
)
def test_a_planted_string_call_is_found(source: str) -> None:
    assert string_calls([("agents/x.py", ast.parse(source))])


@pytest.mark.parametrize(
    "source",
    [
        'NAME = "composite.select"\npage.call(NAME, {})\n',
        'self._call(page, "composite.addBlock", {})\n',
    ],
)
def test_a_planted_bridge_name_is_found(source: str) -> None:
    assert named_functions([("actions/x.py", ast.parse(source))])


def test_calls_that_name_no_bridge_function_pass() -> None:
    source = 'self.call(block)\nzf.writestr("project.json", text)\n'
    tree = ast.parse(source)
    assert not string_calls([("program/x.py", tree)])
    assert not named_functions([("program/x.py", tree)])


# -- the facade ----------------------------------------------------------------------------------


def facade_methods(tree: ast.Module) -> dict[str, list[str]]:
    """Each public method of the facade's classes -> the bridge names it passes to a call."""
    out: dict[str, list[str]] = {}
    for cls in tree.body:
        if not isinstance(cls, ast.ClassDef) or cls.name not in ("ReadBridge", "Bridge"):
            continue
        for fn in cls.body:
            if isinstance(fn, ast.FunctionDef) and not fn.name.startswith("_"):
                out[fn.name] = [
                    node.args[0].value
                    for node in ast.walk(fn)
                    if isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr in CALLS
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)
                ]
    return out


def python_name(js_name: str) -> str:
    """``single_drag.hitTest`` -> ``single_drag_hit_test``."""
    return re.sub(r"(?<=[a-z])([A-Z])", r"_\1", js_name).replace(".", "_").lower()


def facade_problems(tree: ast.Module) -> list[str]:
    problems = []
    seen: dict[str, str] = {}
    for method, names in facade_methods(tree).items():
        if len(names) != 1:
            problems.append(f"{method} calls {len(names)} bridge functions, not one")
            continue
        (name,) = names
        if name not in registered():
            problems.append(f"{method} calls {name!r}, which no bridge/*.js registers")
        if python_name(name) != method:
            problems.append(f"{method} calls {name!r}: name it {python_name(name)}")
        if name in seen:
            problems.append(f"{method} and {seen[name]} both call {name!r}")
        seen[name] = method
    return problems


def test_every_facade_method_calls_one_registered_function_named_after_it() -> None:
    tree = ast.parse(FACADE.read_text())
    assert len(facade_methods(tree)) >= 30
    assert not facade_problems(tree)


def test_the_facade_classes_are_what_the_check_reads() -> None:
    methods = facade_methods(ast.parse(FACADE.read_text()))
    public = {n for cls in (ReadBridge, Bridge) for n in vars(cls) if not n.startswith("_")}
    assert public == set(methods)


@pytest.mark.parametrize(
    ("source", "problem"),
    [
        ("vm.blockz", "which no bridge/*.js registers"),
        ("elements.list", "name it elements_list"),
    ],
)
def test_a_planted_facade_mistake_is_found(source: str, problem: str) -> None:
    tree = ast.parse(
        "class Bridge:\n"
        "    def vm_blocks(self):\n"
        f"        return self._call({source!r}, {{}})\n"
        "    def twice(self):\n"
        "        self._call('vm.start', {})\n"
        "        return self._call('vm.blocks', {})\n"
    )
    problems = facade_problems(tree)
    assert any(problem in p for p in problems)
    assert any("twice calls 2 bridge functions" in p for p in problems)


class Recorder:
    """A transport that records what the facade sends."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any], float | None]] = []

    def call(self, name: str, args: dict[str, Any] | None = None) -> Any:
        self.sent.append((name, args or {}, None))
        return {}

    def call_within(self, name: str, args: dict[str, Any] | None, timeout_s: float) -> Any:
        self.sent.append((name, args or {}, timeout_s))
        return {}


@pytest.mark.parametrize(
    ("use", "sent"),
    [
        (lambda b: b.vm_blocks(), ("vm.blocks", {}, None)),
        (lambda b: b.vm_blocks("Sprite1"), ("vm.blocks", {"target": "Sprite1"}, None)),
        (lambda b: b.single_drag_arm(), ("single_drag.arm", {}, None)),
        (
            lambda b: b.single_drag_arm(keep_baseline=True),
            ("single_drag.arm", {"keep_baseline": True}, None),
        ),
        (lambda b: b.composite_select("Cat"), ("composite.select", {"name": "Cat"}, None)),
        (lambda b: b.composite_select(stage=True), ("composite.select", {"stage": True}, None)),
        (
            lambda b: b.workspace_block_boxes(flyout=False, canvas=True),
            ("workspace.blockBoxes", {"flyout": False, "canvas": True}, None),
        ),
        (lambda b: b.eval_prepare(), ("eval.prepare", {}, None)),
        (
            lambda b: b.eval_prepare({"targets": []}),
            ("eval.prepare", {"json": {"targets": []}}, None),
        ),
        (
            lambda b: b.eval_prepare(b"PK"),
            ("eval.prepare", {"sb3_base64": base64.b64encode(b"PK").decode()}, None),
        ),
        (
            lambda b: b.eval_run([{"op": "frames"}], wall_ms=900),
            ("eval.run", {"ops": [{"op": "frames"}], "wall_ms": 900}, None),
        ),
        (
            lambda b: b.eval_run([], wall_ms=900, begin={"seed": 1}, timeout_s=1.0),
            ("eval.run", {"ops": [], "wall_ms": 900, "begin": {"seed": 1}}, 1.0),
        ),
        (
            lambda b: b.eval_scratchworld({"function": "f"}, 12.0),
            ("eval.scratchworld", {"function": "f"}, 12.0),
        ),
    ],
)
def test_each_method_sends_its_call(use: Any, sent: tuple) -> None:
    recorder = Recorder()
    use(Bridge(recorder))
    assert recorder.sent == [sent]


def test_a_read_bridge_needs_only_call() -> None:
    class Reader:
        def call(self, name: str, args: dict[str, Any] | None = None) -> Any:
            return [name, args]

    assert ReadBridge(Reader()).geometry_block("b1") == ["geometry.block", {"id": "b1"}]
    assert ReadBridge(Reader()).geometry_editing() is True
