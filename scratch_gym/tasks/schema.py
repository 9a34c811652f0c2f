"""The task schema: one definition of what a task is, validated when a task file is read.

A task lives in ``tasks/<category>/<task-id>/task.toml`` with its projects and tests beside it::

    id = "say-hello"
    category = "create"                   # create, debug, extend, compute, or another word
    instruction = "When the green flag is clicked, make Sprite1 say Hello!"
    start = "start.toml"                  # .sb3, project .json, or a project spec (authoring.py)
    golden = "golden.toml"
    tests = "tests.py"                    # test_* functions taking `run`, in file order
    step_budget = 50                      # optional (default 50)
    primitive_step_budget = 120           # optional: primitive mode's (default: step_budget)
    reset_sprites = true                  # optional: tests start sprites where `start` has them

    [tags]
    blocks = ["event_whenflagclicked", "looks_say"]
    difficulty = "easy"                   # easy, medium or hard

    [budget]                              # optional, per test: frames of 1/30 s, wall seconds
    frames = 600
    wall_s = 30

    [[negatives]]                         # projects that must fail at least one test
    file = "negatives/says-hi.toml"
    why = "says Hi instead of Hello!"

    [[neutral]]                           # golden blocks whose removal changes no behaviour
    opcode = "looks_show"
    sprite = "Sprite1"                    # optional; `index` (0-based, among matches) optional
    reason = "the sprite is already visible"

    [[cases]]                             # declarative tests (also allowed besides tests.py)
    name = "says hello"
    steps = [{green_flag = true}, {frames = 5},
             {expect = {said = "Sprite1", op = "contains", value = "Hello!"}}]

Errors are :class:`TaskError`, naming the file and the field.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_STEP_BUDGET = 50
KNOWN_CATEGORIES = ("create", "debug", "extend", "compute")
DIFFICULTIES = ("easy", "medium", "hard")
TASK_FILE = "task.toml"
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


class TaskError(ValueError):
    """A task definition is invalid; the message names the file and the field."""

    def __init__(self, where: str | Path, field_name: str, message: str) -> None:
        self.where = str(where)
        self.field = field_name
        super().__init__(f"{where}: field {field_name!r}: {message}")


@dataclass(frozen=True)
class Budget:
    """What one test may use: frames of virtual time (30 per second) and wall-clock seconds."""

    frames: int = 900
    wall_s: float = 30.0  # a safety net for hangs; frames decide verdicts, not machine load


@dataclass(frozen=True)
class ProjectRef:
    """A project file of a task: ``.sb3``, project ``.json`` or a TOML project spec."""

    path: Path

    @property
    def name(self) -> str:
        return self.path.stem


@dataclass(frozen=True)
class Negative:
    """A wrong solution that must fail at least one test, and why it is wrong."""

    project: ProjectRef
    why: str


@dataclass(frozen=True)
class NeutralBlock:
    """A block of the golden solution whose removal leaves behaviour unchanged, with the reason."""

    opcode: str
    reason: str
    sprite: str | None = None
    index: int | None = None


@dataclass(frozen=True)
class Tags:
    blocks: tuple[str, ...] = ()
    difficulty: str = "medium"
    other: tuple[str, ...] = ()


TestFunction = Callable[[Any], None]


@dataclass(frozen=True)
class TestSpec:
    """One named test: a Python function taking ``run``, or declarative steps."""

    __test__ = False  # not a pytest test class

    name: str
    function: TestFunction | None = None
    steps: tuple[dict[str, Any], ...] | None = None
    budget: Budget = field(default_factory=Budget)
    doc: str = ""


@dataclass(frozen=True)
class Task:
    """A task: instruction, projects, tests and budgets. Build from files with ``loader``."""

    id: str
    category: str
    instruction: str
    start: ProjectRef | None
    golden: ProjectRef | None
    tests: tuple[TestSpec, ...] = ()
    negatives: tuple[Negative, ...] = ()
    neutral: tuple[NeutralBlock, ...] = ()
    tags: Tags = field(default_factory=Tags)
    step_budget: int = DEFAULT_STEP_BUDGET
    primitive_step_budget: int | None = None
    reset_sprites: bool = True
    source: Path | None = None
    external: Any = None  # an imported suite (ScratchWorld) instead of `tests`

    @property
    def suite(self) -> str:
        """``scratchworld`` for a task imported from a ScratchWorld checkout, else ``tasks``."""
        return "scratchworld" if self.external is not None else "tasks"

    def reset_options(self) -> dict[str, Any]:
        """``ScratchEnv.reset(options=...)`` for this task."""
        return {"task": self}

    @property
    def test_names(self) -> list[str]:
        return [t.name for t in self.tests]

    def budget_for(self, action: str) -> int:
        """The step budget for an action mode: ``primitive_step_budget`` in primitive mode (when
        the task sets one), ``step_budget`` otherwise."""
        if action == "primitive" and self.primitive_step_budget is not None:
            return self.primitive_step_budget
        return self.step_budget


# -- validation helpers ---------------------------------------------------------------------------
class Fields:
    """Typed access to a TOML table that reports the file and the (dotted) field on errors."""

    def __init__(self, data: Any, where: str | Path, prefix: str = "") -> None:
        if not isinstance(data, dict):
            raise TaskError(
                where, prefix or "<root>", f"must be a table, got {type(data).__name__}"
            )
        self.data = data
        self.where = where
        self.prefix = prefix

    def name(self, key: str) -> str:
        return f"{self.prefix}{key}"

    def error(self, key: str, message: str) -> TaskError:
        return TaskError(self.where, self.name(key), message)

    def get(
        self, key: str, kind: type | tuple[type, ...], default: Any = ..., required: bool = True
    ) -> Any:
        if key not in self.data:
            if default is not ... or not required:
                return None if default is ... else default
            raise self.error(key, "is required")
        value = self.data[key]
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if (
            isinstance(value, bool)
            and kind is not bool
            and bool not in (kind if isinstance(kind, tuple) else (kind,))
        ):
            raise self.error(key, f"must be {_kind_name(kind)}, got a boolean")
        if not isinstance(value, kind):
            raise self.error(key, f"must be {_kind_name(kind)}, got {type(value).__name__}")
        return value

    def text(self, key: str, default: Any = ...) -> str:
        value = self.get(key, str, default)
        if value is not None and not value.strip() and default is ...:
            raise self.error(key, "must not be empty")
        return value

    def positive_int(self, key: str, default: int) -> int:
        value = self.get(key, int, default)
        if value <= 0:
            raise self.error(key, f"must be a positive integer, got {value}")
        return value

    def table(self, key: str) -> Fields:
        return Fields(self.data.get(key, {}), self.where, f"{self.name(key)}.")

    def tables(self, key: str) -> list[Fields]:
        items = self.data.get(key, [])
        if not isinstance(items, list):
            raise self.error(key, "must be an array of tables ([[...]])")
        return [Fields(item, self.where, f"{self.name(key)}[{i}].") for i, item in enumerate(items)]

    def strings(self, key: str) -> tuple[str, ...]:
        value = self.get(key, list, [])
        if not all(isinstance(v, str) for v in value):
            raise self.error(key, "must be a list of strings")
        return tuple(value)

    def reject_unknown(self, known: set[str]) -> None:
        for key in self.data:
            if key not in known:
                raise self.error(key, f"is not a known field (known: {', '.join(sorted(known))})")


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {
        "str": "a string",
        "int": "an integer",
        "float": "a number",
        "bool": "true or false",
        "list": "a list",
        "dict": "a table",
    }
    return " or ".join(names.get(k.__name__, k.__name__) for k in kinds)


def check_id(value: str, where: str | Path, key: str = "id") -> str:
    if not ID_PATTERN.match(value):
        raise TaskError(where, key, f"{value!r} must be lowercase letters, digits, '-' or '_'")
    return value


def check_category(value: str, where: str | Path) -> str:
    if not ID_PATTERN.match(value):
        raise TaskError(
            where,
            "category",
            f"{value!r} must be a lowercase word (known: {', '.join(KNOWN_CATEGORIES)})",
        )
    return value


def check_difficulty(value: str, where: str | Path) -> str:
    if value not in DIFFICULTIES:
        raise TaskError(
            where, "tags.difficulty", f"{value!r} must be one of {', '.join(DIFFICULTIES)}"
        )
    return value
