"""Reading task folders into :class:`~scratch_gym.tasks.schema.Task` (validated), and test modules."""

from __future__ import annotations

import importlib.util
import inspect
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scratch_gym.tasks.declarative import StepError, validate_steps
from scratch_gym.tasks.schema import (
    DEFAULT_STEP_BUDGET,
    TASK_FILE,
    Budget,
    Fields,
    Negative,
    NeutralBlock,
    ProjectRef,
    Tags,
    Task,
    TaskError,
    TestSpec,
    check_category,
    check_difficulty,
    check_id,
)

PROJECT_SUFFIXES = (".sb3", ".json", ".toml")
TOP_FIELDS = {
    "id",
    "category",
    "instruction",
    "start",
    "golden",
    "tests",
    "step_budget",
    "primitive_step_budget",
    "reset_sprites",
    "tags",
    "budget",
    "negatives",
    "neutral",
    "cases",
}


def budget(frames: int | None = None, wall_s: float | None = None) -> Callable:
    """Decorator for a test function: its own frame and wall-clock budget."""

    def mark(fn: Callable) -> Callable:
        fn.budget = {"frames": frames, "wall_s": wall_s}  # type: ignore[attr-defined]
        return fn

    return mark


def read_task(path: str | Path) -> Task:
    """Read and validate a task folder (or its ``task.toml``)."""
    path = Path(path)
    file = path / TASK_FILE if path.is_dir() else path
    if not file.is_file():
        raise TaskError(file, "<file>", "no such task file")
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise TaskError(file, "<file>", f"not valid TOML: {exc}") from None
    f = Fields(data, file)
    f.reject_unknown(TOP_FIELDS)
    folder = file.parent
    task_id = check_id(f.text("id"), file)
    if folder.name != task_id:
        raise f.error("id", f"{task_id!r} must match the task folder name {folder.name!r}")
    category = check_category(f.text("category"), file)
    if folder.parent.name != category:
        raise f.error(
            "category", f"{category!r} must match the category folder {folder.parent.name!r}"
        )
    default_budget = _budget(f.table("budget"), Budget())
    tests = _tests(f, folder, default_budget)
    if not tests:
        raise f.error("tests", "a task needs at least one test (a tests.py module or [[cases]])")
    tags = f.table("tags")
    tags.reject_unknown({"blocks", "difficulty", "other"})
    return Task(
        id=task_id,
        category=category,
        instruction=f.text("instruction"),
        start=_project(f, "start", folder),
        golden=_project(f, "golden", folder),
        tests=tuple(tests),
        negatives=tuple(_negative(n, folder) for n in f.tables("negatives")),
        neutral=tuple(_neutral(n) for n in f.tables("neutral")),
        tags=Tags(
            blocks=tags.strings("blocks"),
            difficulty=check_difficulty(tags.get("difficulty", str, "medium"), file),
            other=tags.strings("other"),
        ),
        step_budget=f.positive_int("step_budget", DEFAULT_STEP_BUDGET),
        primitive_step_budget=(
            f.positive_int("primitive_step_budget", 1)
            if "primitive_step_budget" in f.data
            else None
        ),
        reset_sprites=f.get("reset_sprites", bool, True),
        source=folder,
    )


def _project(f: Fields, key: str, folder: Path) -> ProjectRef:
    rel = f.text(key)
    return _project_path(f, key, folder, rel)


def _project_path(f: Fields, key: str, folder: Path, rel: str) -> ProjectRef:
    path = (folder / rel).resolve()
    if path.suffix.lower() not in PROJECT_SUFFIXES:
        raise f.error(key, f"{rel!r} must be a {', '.join(PROJECT_SUFFIXES)} file")
    if not path.is_file():
        raise f.error(key, f"{rel!r} does not exist in {folder}")
    return ProjectRef(path)


def _negative(f: Fields, folder: Path) -> Negative:
    f.reject_unknown({"file", "why"})
    return Negative(_project_path(f, "file", folder, f.text("file")), f.text("why"))


def _neutral(f: Fields) -> NeutralBlock:
    f.reject_unknown({"opcode", "reason", "sprite", "index"})
    index = f.get("index", int, None)
    if index is not None and index < 0:
        raise f.error("index", "must be >= 0")
    return NeutralBlock(f.text("opcode"), f.text("reason"), f.get("sprite", str, None), index)


def _budget(f: Fields, base: Budget) -> Budget:
    f.reject_unknown({"frames", "wall_s"})
    frames = f.positive_int("frames", base.frames)
    wall_s = f.get("wall_s", float, base.wall_s)
    if wall_s <= 0:
        raise f.error("wall_s", "must be positive")
    return Budget(frames, wall_s)


def _tests(f: Fields, folder: Path, default: Budget) -> list[TestSpec]:
    tests: list[TestSpec] = []
    module_rel = f.get("tests", str, None)
    if module_rel is not None:
        path = folder / module_rel
        if not path.is_file() or path.suffix != ".py":
            raise f.error("tests", f"{module_rel!r} must be a Python file in {folder}")
        tests.extend(load_test_functions(path, default, where=f.where))
    for case in f.tables("cases"):
        case.reject_unknown({"name", "steps", "budget", "doc"})
        steps = case.get("steps", list)
        try:
            validate_steps(steps)
        except StepError as exc:
            raise case.error("steps", str(exc)) from None
        tests.append(
            TestSpec(
                name=case.text("name"),
                steps=tuple(steps),
                budget=_budget(case.table("budget"), default),
                doc=case.get("doc", str, ""),
            )
        )
    names = [t.name for t in tests]
    for name in names:
        if names.count(name) > 1:
            raise f.error("tests", f"test name {name!r} is used twice")
    return tests


def load_test_functions(
    path: Path, default: Budget, where: str | Path | None = None
) -> list[TestSpec]:
    """The ``test_*`` functions of a Python file, in the order they are defined."""
    module = _import_file(path, where or path)
    functions = [
        obj
        for name, obj in vars(module).items()
        if name.startswith("test_")
        and inspect.isfunction(obj)
        and obj.__module__ == module.__name__
    ]
    functions.sort(key=lambda fn: fn.__code__.co_firstlineno)
    specs = []
    for fn in functions:
        params = inspect.signature(fn).parameters
        if len(params) != 1:
            raise TaskError(path, fn.__name__, "a test function takes exactly one argument, `run`")
        own: dict[str, Any] = getattr(fn, "budget", {})
        spec_budget = Budget(
            own.get("frames") or default.frames, own.get("wall_s") or default.wall_s
        )
        doc = inspect.getdoc(fn) or ""
        specs.append(
            TestSpec(fn.__name__[len("test_") :], function=fn, budget=spec_budget, doc=doc)
        )
    return specs


def _import_file(path: Path, where: str | Path) -> Any:
    name = "scratch_gym_task_tests." + "_".join(path.resolve().parts[-3:]).replace(
        "-", "_"
    ).replace(".", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise TaskError(where, "tests", f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        sys.modules.pop(name, None)
        raise TaskError(
            where, "tests", f"{path.name} failed to import: {type(exc).__name__}: {exc}"
        ) from exc
    return module
