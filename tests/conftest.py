"""Shared fixtures: real Chromium, real editor. One browser per test session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from scratch_gym.editor.browser import BrowserSession
from scratch_gym.editor.page import EditorPage

REPO_ROOT = Path(__file__).resolve().parent.parent

# Fixtures (here and in the folders' conftest.py files) that open an editor page: a test that
# uses one is marked ``browser``. A test that opens one in its body is marked by its module.
BROWSER_FIXTURES = frozenset(
    {"editor_page", "fresh_editor", "drag_pool", "drag_env", "primitive_env", "composite_env",
     "driver", "page", "_program_page", "served"}
)  # fmt: skip


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test that uses a browser fixture ``browser``."""
    for item in items:
        if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(autouse=True)
def _chromium_only_where_marked(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch):
    """A test not marked ``browser`` must not open an editor page in this process, so that
    ``-m 'not browser'`` is truly the fast tier: doing so fails the test with a message that says
    how to mark it. (Pages opened by worker subprocesses are not seen here: tests that start
    workers are marked by hand.)"""
    if request.node.get_closest_marker("browser") is not None:
        return

    def refuse(self: BrowserSession) -> None:
        raise RuntimeError(
            f"{request.node.nodeid} opens an editor page but is not marked 'browser': use a "
            "browser fixture or mark it with @pytest.mark.browser"
        )

    monkeypatch.setattr(BrowserSession, "_launch", refuse)
    monkeypatch.setattr(BrowserSession, "acquire", refuse)  # a browser that is already running


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
    """An editor page shared by the tests of a session; tests reset what they change. Between
    tests its VM's frame loop rests (``_rest_the_shared_page``)."""
    page = EditorPage().open()
    yield page
    page.close()


@pytest.fixture(autouse=True)
def _rest_the_shared_page(request: pytest.FixtureRequest):
    """After a test that used the shared editor page, stop its VM's frame loop
    (``EditorPage.rest``): an idle page redraws its stage 30 times a second otherwise, taking
    CPU from the tests that follow."""
    page = request.getfixturevalue("editor_page") if "editor_page" in request.fixturenames else None
    yield
    if page is not None and page.is_alive():
        page.rest()


@pytest.fixture
def fresh_editor(editor_page: EditorPage) -> EditorPage:
    """The shared editor page reset to the default project and view (the large stage, as a new
    page has it: a test before may have left the small one), its frame loop running as on a new
    page."""
    if not editor_page.is_alive():
        editor_page.recover()
    editor_page.start_vm()
    editor_page.stage_size("large")
    editor_page.load_project(default_project_json())
    editor_page.settle()
    editor_page.bridge.view_reset()
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
