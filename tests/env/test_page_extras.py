"""EditorPage input and project calls that ``serve`` needs: mouse buttons, key down and up, the
project as .sb3, the GUI's stage size."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from scratch_gym.actions.primitive import drag
from scratch_gym.editor.page import EditorPage
from tests.helpers import flyout_box, grab, non_shadow, vm_blocks


def test_export_sb3_is_the_loaded_project(fresh_editor: EditorPage) -> None:
    data = fresh_editor.export_sb3()
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        project = json.loads(z.read("project.json"))
    assert [t["name"] for t in project["targets"]] == [
        t["name"] for t in fresh_editor.project_json()["targets"]
    ]


def test_stage_size_switches_and_reports(fresh_editor: EditorPage) -> None:
    try:
        assert fresh_editor.stage_size() == "large"
        assert fresh_editor.stage_size("small") == "small"
        assert fresh_editor.stage_size() == "small"
    finally:
        fresh_editor.stage_size("large")
    with pytest.raises(Exception, match="size must be"):
        fresh_editor.stage_size("huge")


def test_right_click_opens_the_workspace_context_menu(fresh_editor: EditorPage) -> None:
    fresh_editor.click(600, 400, button="right")
    types = {e["type"] for e in fresh_editor.bridge.elements_list()}
    fresh_editor.press("Escape")
    fresh_editor.dismiss_menus()
    assert "menu_item" in types
    with pytest.raises(ValueError, match="unknown mouse button"):
        fresh_editor.click(600, 400, button="fourth")


def test_key_down_and_up_type_into_the_sprite_name(fresh_editor: EditorPage) -> None:
    name = next(
        e for e in fresh_editor.bridge.elements_list()
        if e["type"] == "input" and e.get("label") == "Name"
    )  # fmt: skip
    fresh_editor.click(name["cx"], name["cy"])
    fresh_editor.press("Control+a")
    fresh_editor.key_down("Shift")
    fresh_editor.key_down("B")
    fresh_editor.key_up("B")
    fresh_editor.key_up("Shift")
    fresh_editor.press("Enter")
    sprites = [t["name"] for t in fresh_editor.project_json()["targets"] if not t["isStage"]]
    assert sprites == ["B"]


def test_input_after_a_raw_drag_starts_where_the_drag_ended(fresh_editor: EditorPage) -> None:
    """``drag_path`` presses without a hover move and leaves Playwright's idea of the pointer
    behind: a wheel turn after it must scroll what lies under the drag's end (the workspace),
    not what lay under Playwright's last point (the palette)."""
    page = fresh_editor
    start = grab(flyout_box(page, "motion_movesteps"))
    page.mouse_move(150, 500)  # over the palette: where Playwright last put the pointer
    drag(page, start, (700, 300))
    page.settle()
    assert non_shadow(vm_blocks(page), "motion_movesteps")
    before = page.bridge.view_state()
    page.wheel(0, 300)
    page.settle()
    after = page.bridge.view_state()
    assert after["flyout_scroll_y"] == before["flyout_scroll_y"]
    assert after["scroll_y"] != before["scroll_y"]
