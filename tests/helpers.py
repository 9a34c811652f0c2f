"""Test helpers: projects written by hand and reading blocks from the VM."""

from __future__ import annotations

from typing import Any

from scratch_gym.agents.demo import grab_point as grab  # noqa: F401 (a point on a block's label)
from scratch_gym.editor.page import EditorPage
from scratch_gym.program.projects import empty_project


def project_with_script() -> dict[str, Any]:
    """Empty project plus `when flag clicked / move (10) steps` and a lone `turn right (15)`."""
    project = empty_project()
    sprite = project["targets"][1]
    sprite["blocks"] = {
        "hat": {"opcode": "event_whenflagclicked", "next": "mv", "parent": None, "inputs": {},
                "fields": {}, "shadow": False, "topLevel": True, "x": 40, "y": 60},
        "mv": {"opcode": "motion_movesteps", "next": None, "parent": "hat",
               "inputs": {"STEPS": [1, [4, "10"]]}, "fields": {}, "shadow": False,
               "topLevel": False},
        "tr": {"opcode": "motion_turnright", "next": None, "parent": None,
               "inputs": {"DEGREES": [1, [4, "15"]]}, "fields": {}, "shadow": False,
               "topLevel": True, "x": 300, "y": 300},
    }  # fmt: skip
    return project


def frame_loop_runs(page: Any) -> bool:
    """Does the VM's frame loop run on this Playwright page (``EditorPage.page``)?"""
    return page.evaluate("ScratchGym.vm.runtime._steppingInterval !== null")


def vm_blocks(page: EditorPage, target: str = "Sprite1") -> dict[str, dict[str, Any]]:
    return page.call("vm.blocks", {"target": target})


def non_shadow(blocks: dict[str, dict[str, Any]], opcode: str) -> list[tuple[str, dict]]:
    return [(i, b) for i, b in blocks.items() if b["opcode"] == opcode and not b.get("shadow")]


def flyout_box(page: EditorPage, opcode: str) -> dict[str, Any]:
    boxes = page.call("workspace.blockBoxes", {"flyout": True, "canvas": False})
    return next(b for b in boxes if b["opcode"] == opcode and not b["shadow"])


def canvas_box(page: EditorPage, opcode: str) -> dict[str, Any]:
    boxes = page.call("workspace.blockBoxes", {"flyout": False, "canvas": True})
    return next(b for b in boxes if b["opcode"] == opcode and not b["shadow"])
