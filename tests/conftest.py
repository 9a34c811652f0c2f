"""Shared fixtures: real Chromium, real editor. One browser per test session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from scratch_gym.editor.page import EditorPage

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _keep_user_tasks_env():
    """The CLI puts its ``--tasks-dir`` folders into ``$SCRATCH_GYM_TASKS`` for its process (so
    that workers see them); a test that runs the CLI in-process must not pass them to the next."""
    from scratch_gym.tasks.registry import TASKS_ENV

    before = os.environ.get(TASKS_ENV)
    yield
    if before is None:
        os.environ.pop(TASKS_ENV, None)
    else:
        os.environ[TASKS_ENV] = before


@pytest.fixture(scope="session")
def editor_page() -> EditorPage:
    """An editor page shared by the tests of a session; tests reset what they change."""
    page = EditorPage().open()
    yield page
    page.close()


@pytest.fixture
def fresh_editor(editor_page: EditorPage) -> EditorPage:
    """The shared editor page reset to the default project and view."""
    if not editor_page.is_alive():
        editor_page.recover()
    editor_page.load_project(default_project_json())
    editor_page.settle()
    editor_page.call("view.reset")
    return editor_page


def default_project_json() -> dict:
    from scratch_gym.program.projects import empty_project

    return empty_project()


@pytest.fixture(scope="session")
def drag_pool(tmp_path_factory) -> Path:
    """A small captured single-drag pool (two stored tasks, two generated ones), built once."""
    from scratch_gym.single_drag.fast.pool import build_pool

    folder = tmp_path_factory.mktemp("drag-pool")
    build_pool(folder, n=2, seed=7, stored=["dc-05", "si-01"], workers=1)
    return folder
