"""EditorPage input and project calls that ``serve`` needs: mouse buttons, key down and up, the
project as .sb3, the GUI's stage size."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from scratch_gym.editor.page import EditorPage


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
