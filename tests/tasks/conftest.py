"""Fixtures for the task tests: projects built from scratchblocks text, tasks made in code."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from scratch_gym.program import ProjectBuilder
from scratch_gym.tasks.schema import Budget, Task, TestSpec


def sprite_project(scripts: str, **sprite: object) -> bytes:
    """An .sb3 whose Sprite1 (the cat) runs ``scripts``."""
    return ProjectBuilder().sprite("Sprite1", scripts=scripts, **sprite).sb3_bytes()


def code_task(
    *tests: Callable, frames: int = 300, wall_s: float = 10.0, task_id: str = "t"
) -> Task:
    """A task whose tests are the given functions (named after them, without ``test_``)."""
    specs = tuple(
        TestSpec(fn.__name__.removeprefix("test_"), function=fn, budget=Budget(frames, wall_s))
        for fn in tests
    )
    return Task(task_id, "create", "in code", None, None, specs, reset_sprites=False)


@pytest.fixture
def page(fresh_editor):
    """The shared editor page, reset to the default project, its frame loop idle (as the
    environment leaves it between actions)."""
    fresh_editor.settle(stop_vm=True)
    return fresh_editor
