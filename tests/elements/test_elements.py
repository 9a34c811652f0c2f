"""The DOM element list in the real editor: blocks, occlusion, order, index targeting."""

from __future__ import annotations

from collections import Counter

import pytest

from scratch_gym.actions.errors import ActionError
from scratch_gym.actions.primitive import resolve_element
from scratch_gym.observations.base import EpisodeText
from scratch_gym.observations.elements import (
    ELEMENT_TYPES,
    ElementArrayObservation,
    ElementReader,
    ScreenElementsObservation,
    element_rows,
)
from scratch_gym.program.projects import empty_project
from tests.helpers import project_with_script, vm_blocks


def _load(page, project):
    page.load_project(project)
    page.settle()
    page.call("view.reset")
    page.settle(stop_vm=True)


def _contains(box, inner, slack=1.0):
    return (
        box.x - slack <= inner["x"]
        and box.y - slack <= inner["y"]
        and inner["x"] + inner["w"] <= box.x + box.w + slack
        and inner["y"] + inner["h"] <= box.y + box.h + slack
    )


def occluded_project():
    """A lone ``show`` block exactly under a wider ``say`` block drawn after it."""
    project = empty_project()
    project["targets"][1]["blocks"] = {
        "hidden": {"opcode": "looks_show", "next": None, "parent": None, "inputs": {},
                   "fields": {}, "shadow": False, "topLevel": True, "x": 180, "y": 196},
        "cover": {"opcode": "looks_sayforsecs", "next": None, "parent": None,
                  "inputs": {"MESSAGE": [1, [10, "Hello there, friend!"]], "SECS": [1, [4, "2"]]},
                  "fields": {}, "shadow": False, "topLevel": True, "x": 180, "y": 196},
        "away": {"opcode": "looks_hide", "next": None, "parent": None, "inputs": {}, "fields": {},
                 "shadow": False, "topLevel": True, "x": 3000, "y": 3000},
    }  # fmt: skip
    return project


def test_every_visible_block_appears_once_with_opcode_and_a_box_holding_its_label(fresh_editor):
    page = fresh_editor
    _load(page, project_with_script())
    elements = ElementReader().read(page)
    atoms = page.call("elements.texts")
    blocks = [e for e in elements if e.type == "block"]
    vm = {i: b for i, b in vm_blocks(page).items() if not b["shadow"]}
    assert sorted(e.block_id for e in blocks) == sorted(vm)
    for e in blocks:
        assert e.opcode == vm[e.block_id]["opcode"]
    labels = {"hat": "when", "mv": "move", "tr": "turn"}
    for e in blocks:
        inside = [a for a in atoms if a["text"] == labels[e.block_id] and _contains(e, a)]
        assert len(inside) == 1, (e, labels[e.block_id])
        assert e.x <= e.cx <= e.x + e.w and e.y <= e.cy <= e.y + e.h
    # The hat's box is its own shape, not its whole stack.
    hat = next(e for e in blocks if e.block_id == "hat")
    move = next(e for e in blocks if e.block_id == "mv")
    assert hat.y + hat.h < move.y + move.h
    # Flyout: each fully visible flyout block once, with its opcode.
    boxes = page.call("workspace.blockBoxes", {"flyout": True, "canvas": False})
    visible = Counter(
        b["opcode"] for b in boxes if not b["shadow"] and 93 <= b["y"] <= 720 - b["h"]
    )
    listed = Counter(e.opcode for e in elements if e.type == "flyout_block")
    assert visible and all(listed[op] == n for op, n in visible.items()), (visible, listed)
    assert "motion_movesteps" in listed and "looks_say" not in listed  # Looks is scrolled away


def test_known_screen_lists_the_editor_parts_in_a_stable_order(fresh_editor):
    page = fresh_editor
    _load(page, project_with_script())
    first = ElementReader().read(page)
    second = ElementReader().read(page)
    assert element_rows(first) == element_rows(second)
    assert [e.index for e in first] == list(range(len(first)))
    assert all(e.type in ELEMENT_TYPES for e in first)
    texts = {(e.type, e.text) for e in first}
    for want in [("tab", "Code"), ("category", "Motion"), ("category", "My Blocks"),
                 ("menu", "File"), ("sprite", "Sprite1"), ("input", "10"),
                 ("button", "Start project"), ("flyout_block", "move 10 steps")]:  # fmt: skip
        assert want in texts, want
    assert {"stage", "canvas"} <= {e.type for e in first}
    inputs = {e.label: e.text for e in first if e.type == "input" and e.label}
    assert inputs["x"] == "0" and inputs["Size"] == "100"
    row = next(e for e in first if e.type == "block" and e.block_id == "mv").row()
    assert row.split(" ", 2)[1] == "block" and '"move 10 steps"' in row


def test_an_occluded_or_off_screen_block_is_absent(fresh_editor):
    page = fresh_editor
    _load(page, occluded_project())
    ids = {e.block_id for e in ElementReader().read(page) if e.type == "block"}
    assert set(vm_blocks(page)) >= {"hidden", "cover", "away"}
    assert "cover" in ids
    assert "hidden" not in ids and "away" not in ids


def test_index_targeting_clicks_the_right_element(fresh_editor):
    page = fresh_editor
    _load(page, project_with_script())
    elements = ElementReader().read(page)
    looks = next(e for e in elements if e.type == "category" and e.text == "Looks")
    x, y = resolve_element(elements, looks.index)
    page.click(x, y)
    page.settle()
    after = ElementReader().read(page)
    selected = page.page.evaluate(
        "() => document.querySelector('.blocklyToolboxSelected').textContent.trim()"
    )
    assert selected == "Looks"
    assert any(e.type == "flyout_block" and e.opcode == "looks_sayforsecs" for e in after)
    # A canvas input by index: click it and type a value.
    elements = after
    field = next(e for e in elements if e.type == "input" and e.block_id == "tr")
    page.click(*resolve_element(elements, field.index))
    page.type_text("77")
    page.press("Enter")
    page.settle()
    tr = vm_blocks(page)["tr"]
    shadow = vm_blocks(page)[tr["inputs"]["DEGREES"]["shadow"]]
    assert shadow["fields"]["NUM"]["value"] == "77"


def test_resolve_element_rejects_bad_indices():
    elements = [{"cx": 10.0, "cy": 20.0}, {"cx": 30.5, "cy": 40.0}]
    assert resolve_element(elements, 1) == (30.5, 40.0)
    assert resolve_element(elements, 0.0) == (10.0, 20.0)
    for bad, message in [(2, "not in this step's element list"), (-1, "not in this step"),
                         ("1", "integer"), (1.5, "integer"), (True, "integer")]:  # fmt: skip
        with pytest.raises(ActionError, match=message):
            resolve_element(elements, bad)
    with pytest.raises(ActionError, match=r"0 elements: none"):
        resolve_element([], 0)


def test_observation_models_match_their_spaces(fresh_editor):
    page = fresh_editor
    _load(page, project_with_script())
    screen = ScreenElementsObservation()
    obs = screen.observe(page, EpisodeText(instruction="hi"))
    assert screen.space.contains(obs)
    assert obs["elements"].splitlines()[0].startswith("0 ")
    assert len(screen.shown_elements()) == len(obs["elements"].splitlines())
    assert screen.space.contains(screen.blank(EpisodeText()))
    arrays = ElementArrayObservation(max_elements=16)
    enc = arrays.observe(page, EpisodeText())
    assert arrays.space.contains(enc)
    assert enc["mask"].sum() == 16  # the editor shows more than 16 elements
    assert arrays.space.contains(arrays.blank(EpisodeText()))
    full = ElementArrayObservation(max_elements=256).observe(page, EpisodeText())
    n = int(full["mask"].sum())
    assert 40 < n < 256 and (full["type"][:n] > 0).all() and (full["type"][n:] == 0).all()
    blocks = full["opcode"][full["type"] == 1 + ELEMENT_TYPES.index("block")]
    assert len(blocks) == 3 and (blocks >= 2).all()
