"""Fixtures of the program model's tests: the all-blocks corpus and the shared editor page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from scratch_gym.editor.page import EditorPage

FIXTURES = Path(__file__).with_name("fixtures")


@pytest.fixture(scope="session")
def all_blocks_sprite() -> str:
    """Sprite scripts that use every sprite block of the catalogue at least once."""
    return (FIXTURES / "all_blocks_sprite.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def all_blocks_stage() -> str:
    """Stage scripts with the stage-only blocks."""
    return (FIXTURES / "all_blocks_stage.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def _program_page() -> EditorPage:
    page = EditorPage().open()
    yield page
    page.close()


@pytest.fixture
def page(_program_page: EditorPage) -> Iterator[EditorPage]:
    """One editor page for all the program model's tests.

    Not the suite's shared ``editor_page``: these tests load the Pen extension, which the VM
    cannot unload, and that would add a category to the other tests' toolbox.
    """
    if not _program_page.is_alive():
        _program_page.recover()
    _program_page.start_vm()  # as on a new page; it rests between tests (``EditorPage.rest``)
    yield _program_page
    if _program_page.is_alive():
        _program_page.rest()
