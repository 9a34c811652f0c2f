"""One drag of a single-drag task in the editor: set the task up, drag, read the outcome from the VM."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scratch_gym.actions.primitive import drag
from scratch_gym.editor.page import NEUTRAL_POINT, BridgeError, EditorPage
from scratch_gym.single_drag.tasks.task import DragTask

SETTLE_MS = 3000


@dataclass
class Outcome:
    """What one drag did: which block it picked up and whether the goal holds in the VM."""

    success: bool
    start_correct: bool  # the intended block was the one dragged
    dragged: dict[str, Any] | None  # {id, opcode, from_flyout} as Blockly reported the drag
    block: str | None  # the intended block's id after the drag (None: not in the workspace)


def prepare(page: EditorPage, task: DragTask, project: dict[str, Any] | None = None) -> dict:
    """Load the task's project, restore its view, stop the VM and arm the drag tracker."""
    page.start_vm()
    page.load_project(project if project is not None else task.build_project())
    page.settle(SETTLE_MS)
    view = show_view(page, task, stop_vm=True)
    page.bridge.single_drag_arm()
    return view


def show_view(page: EditorPage, task: DragTask, stop_vm: bool = False) -> dict[str, Any]:
    """Set ``task``'s view (target, stage size, palette, pan, zoom) on the loaded project and
    wait for the editor to settle (stopping the VM's frame loop with ``stop_vm``).

    A translation past the scroll limits (ScratchWorld's workspace states, generated pans) does
    not survive a later scroll through Blockly's scrollbars, such as the GUI restoring the
    editing target's scroll after a load: the view is set again if it moved meanwhile.
    Measured: which state a reset ended in depended on the task before it (70 px apart)."""
    page.bridge.view_reset()
    view = page.bridge.single_drag_view(task.view.to_args())
    page.mouse_move(*NEUTRAL_POINT)
    page.settle(SETTLE_MS, stop_vm=stop_vm)
    if not _same_view(page.bridge.view_state(), view, CANVAS_KEYS):
        view = page.bridge.single_drag_view(task.view.to_args())
        page.settle(SETTLE_MS, stop_vm=stop_vm)
    return view


def restore(
    page: EditorPage, task: DragTask, project: dict[str, Any], view: dict[str, Any] | None = None
) -> bool:
    """Undo the last drag (fast); reload the project when the undo did not restore the blocks,
    or the view (scroll, zoom) differs from ``view`` (a drop can move the scroll limits).

    Returns True when undo sufficed. (For probe drags: the VM's frame loop stays stopped.)"""
    try:
        undone = page.bridge.single_drag_undo()
    except BridgeError:
        undone = {"ok": False}
    if undone["ok"]:
        now = page.bridge.single_drag_view(task.view.to_args())
        if view is None or _same_view(now, view):
            page.settle(SETTLE_MS, stable_frames=1)
            page.bridge.single_drag_arm(keep_baseline=True)
            return True
    prepare(page, task, project)
    return False


CANVAS_KEYS = ("scroll_x", "scroll_y", "scale")  # the workspace's scroll and zoom
VIEW_KEYS = (*CANVAS_KEYS, "flyout_scroll_y")  # and the palette's scroll


def _same_view(
    a: Mapping[str, Any], b: Mapping[str, Any], keys: tuple[str, ...] = VIEW_KEYS
) -> bool:
    """Whether two views (``single_drag_view`` answers, or a ``view_state``) agree on ``keys``
    within half a pixel."""
    return all(abs(float(a[k]) - float(b[k])) < 0.5 for k in keys)


def perform(
    page: EditorPage, start: tuple[float, float], end: tuple[float, float], probe: bool = False
) -> None:
    """The real drag (the environment's own), then wait for the editor to settle.

    A ``probe`` drag (feasible-region search) leaves the VM's frame loop stopped: dropping
    blocks updates the VM through Blockly's events, which need no frames."""
    if probe:
        drag(page, start, end)
        page.settle(SETTLE_MS, stable_frames=1)
        return
    page.start_vm()
    drag(page, start, end)
    page.settle(SETTLE_MS, stop_vm=True)


def outcome(page: EditorPage, task: DragTask, blocks: dict[str, Any] | None = None) -> Outcome:
    """Read the drag's outcome: the dragged block (Blockly) and the goal relations (the VM)."""
    dragged = page.bridge.single_drag_dragged()
    if blocks is None:
        blocks = page.bridge.vm_blocks()
    start_ok = _is_intended(task, dragged)
    block = dragged["id"] if start_ok and dragged else None
    if block is None and task.source.origin == "canvas":
        block = task.source.block
    success = start_ok and block is not None and goal_holds(task, blocks, block)
    return Outcome(success=success, start_correct=start_ok, dragged=dragged, block=block)


def _is_intended(task: DragTask, dragged: dict[str, Any] | None) -> bool:
    if not dragged:
        return False
    src = task.source
    if src.origin == "canvas":
        return dragged["id"] == src.block
    return bool(dragged.get("from_flyout")) and dragged.get("opcode") == src.opcode


def goal_holds(task: DragTask, blocks: dict[str, Any], block: str) -> bool:
    """Do all the task's goal relations hold in the VM ``blocks`` for the dragged ``block``?"""
    if block not in blocks:
        return False
    for rel in task.goal:
        other = blocks.get(rel.block)
        if other is None:
            return False
        if rel.rel == "below" and other.get("next") != block:
            return False
        if rel.rel == "input":
            slot = (other.get("inputs") or {}).get(rel.input or "")
            if not slot or slot.get("block") != block:
                return False
        if rel.rel == "above" and rel.block not in _stack_below(blocks, block):
            return False
    return True


def _stack_below(blocks: dict[str, Any], block: str) -> list[str]:
    out: list[str] = []
    nxt = blocks[block].get("next")
    while nxt and nxt in blocks and len(out) < 1000:
        out.append(nxt)
        nxt = blocks[nxt].get("next")
    return out
