"""A project loads as on a fresh page: an extension an earlier project loaded does not stay in the
palette, one the project names shows even before a block uses it, and one asked for again is the
same extension, not a second copy (bridge/vm.js, keepExtensionsPerProject)."""

from __future__ import annotations

from scratch_gym.observations.elements import ElementReader
from scratch_gym.single_drag.tasks.task import build_project

PEN_SCRIPT = {"scripts": [{"text": "when green flag clicked\npen down\nmove (10) steps"}]}
PLAIN_SCRIPT = {"scripts": [{"text": "when green flag clicked\nmove (10) steps"}]}


def _categories(page, spec: dict) -> list[str]:
    page.load_project(build_project(spec))
    page.settle()
    return [e.text for e in ElementReader().read(page) if e.type == "category"]


def _pen_service(page) -> str | None:
    return page.page.evaluate(
        "() => { const vm = ScratchGym.vm; return vm.extensionManager._loadedExtensions.get('pen')"
        " || (vm._sgSetAside && vm._sgSetAside.has('pen') ? vm._sgSetAside.get('pen').service"
        " : null); }"
    )


def test_a_pen_category_leaves_with_the_project_that_used_it_and_comes_back_the_same(
    fresh_editor,
):
    page = fresh_editor
    assert "Pen" not in _categories(page, PLAIN_SCRIPT)
    assert "Pen" in _categories(page, PEN_SCRIPT)
    first = _pen_service(page)
    assert first is not None
    # a later project without pen blocks shows the palette a fresh page shows
    assert "Pen" not in _categories(page, PLAIN_SCRIPT)
    assert page.call("vm.extensions") == {"loaded": [], "set_aside": ["pen"]}
    # needed again, the same extension comes back (no second copy is made)
    assert "Pen" in _categories(page, PEN_SCRIPT)
    assert _pen_service(page) == first
    assert page.call("vm.extensions") == {"loaded": ["pen"], "set_aside": []}


def test_a_project_that_names_pen_without_pen_blocks_shows_its_category(fresh_editor):
    page = fresh_editor
    assert "Pen" not in _categories(page, PLAIN_SCRIPT)
    assert "Pen" in _categories(page, {**PLAIN_SCRIPT, "extensions": ["pen"]})
    assert "Pen" not in _categories(page, PLAIN_SCRIPT)
    # the Add Extension menu's path (extensionManager.loadExtensionURL) brings it back too
    page.page.evaluate("() => ScratchGym.vm.extensionManager.loadExtensionURL('pen')")
    page.settle()
    assert "Pen" in [e.text for e in ElementReader().read(page) if e.type == "category"]
    assert page.call("vm.extensions") == {"loaded": ["pen"], "set_aside": []}
