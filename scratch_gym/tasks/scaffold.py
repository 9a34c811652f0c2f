"""A new task's folder, ready to fill in (``scratch-gym tasks new``), and what is still unfilled.

The scaffold is a valid task (the loader reads it) whose instruction, golden project and tests
are placeholders. :func:`unfinished` names each placeholder still there, so that ``tasks check``
tells the author what to fill in instead of reporting a check of placeholders.
"""

from __future__ import annotations

from pathlib import Path

from scratch_gym.tasks.schema import TASK_FILE, Task, TaskError, check_category, check_id

INSTRUCTION_PLACEHOLDER = "TODO: describe what the agent must build"
PLACEHOLDER_TEST = "todo_write_your_tests"

TASK_TOML = '''id = "{id}"
category = "{category}"
instruction = """
{instruction}
"""
start = "start.toml"      # the project the agent starts from
golden = "golden.toml"    # a correct solution: passes every test
tests = "tests.py"        # test_* functions taking `run`
step_budget = 50

[tags]
blocks = []               # opcodes the solution needs, e.g. ["event_whenflagclicked"]
difficulty = "easy"       # easy, medium or hard
'''

START_TOML = """# The project the agent starts from (format: scratch_gym/tasks/authoring.py).
[[sprites]]
name = "Sprite1"          # the default cat
"""

GOLDEN_TOML = '''# A correct solution: the starting project plus the scripts that solve the task.
extends = "start.toml"

[[sprites]]
name = "Sprite1"
scripts = """
"""
'''

TESTS_PY = '''"""Tests of {id}: each test_* function gets `run`, a fresh copy of the project to drive."""

from scratch_gym.tasks import TestFailure


def test_{placeholder}(run):
    raise TestFailure("tests.py still holds the scaffold's placeholder test: write the tests")
'''


def create_scaffold(folder: str | Path, task_id: str, category: str) -> Path:
    """Write ``folder/<category>/<task_id>/`` (task.toml, start.toml, golden.toml, tests.py)."""
    check_id(task_id, "<task id>")
    check_category(category, "<category>")
    target = Path(folder).expanduser() / category / task_id
    if target.exists():
        raise TaskError(target, "<folder>", "already exists; choose another id or remove it")
    target.mkdir(parents=True)
    files = {
        TASK_FILE: TASK_TOML.format(
            id=task_id, category=category, instruction=INSTRUCTION_PLACEHOLDER
        ),
        "start.toml": START_TOML,
        "golden.toml": GOLDEN_TOML,
        "tests.py": TESTS_PY.format(id=task_id, placeholder=PLACEHOLDER_TEST),
    }
    for name, text in files.items():
        (target / name).write_text(text, encoding="utf-8")
    return target


def unfinished(task: Task) -> list[str]:
    """What of the scaffold is still unfilled in ``task`` (empty when nothing is)."""
    todo = []
    folder = task.source
    if task.instruction.strip().startswith("TODO"):
        todo.append(f"{folder / TASK_FILE}: write the instruction the agent gets")
    if task.start is not None and task.golden is not None:
        from scratch_gym.tasks.blockdiff import changed_units
        from scratch_gym.tasks.projects import project_json

        if not changed_units(project_json(task.start), project_json(task.golden)):
            todo.append(
                f"{task.golden.path}: add the solution's scripts "
                "(the golden project adds no block to the starting project)"
            )
    if any(t.name == PLACEHOLDER_TEST for t in task.tests):
        path = folder / "tests.py"
        todo.append(f"{path}: replace test_{PLACEHOLDER_TEST} with tests of the behaviour")
    return todo
