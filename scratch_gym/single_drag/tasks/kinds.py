"""What kind of drag a task asks for, read from its goal and its starting project: the rows of
the per-kind reports (generated, stored and imported tasks alike).

* relation: ``below`` (end of a stack, below a C-block or a lone hat), ``insert`` (mid-stack),
  ``above`` (on top of a stack or a lone block), ``c_mouth`` (into a C-block's first mouth),
  ``else`` (if-else's second mouth), ``value_slot`` (a number, text or angle input),
  ``condition`` (a boolean input: if, repeat until, wait until, and/or/not operands).
* source: ``palette``, ``canvas_block`` (a lone block) or ``canvas_stack`` (a stack grabbed by
  its top block).
* shape of the dragged block: ``hat``, ``stack``, ``cap``, ``c``, ``reporter``, ``boolean``,
  ``variable``.
"""

from __future__ import annotations

from typing import Any

from scratch_gym.single_drag.tasks.task import DragTask

RELATION_KINDS = ("below", "insert", "above", "c_mouth", "else", "value_slot", "condition")
SOURCE_KINDS = ("palette", "canvas_block", "canvas_stack")
SHAPES = ("hat", "stack", "cap", "c", "reporter", "boolean", "variable")


def edited_blocks(task: DragTask, project: dict[str, Any] | None = None) -> dict[str, Any]:
    """The blocks of the target the task edits (its view's target, else the first sprite)."""
    project = project if project is not None else task.build_project()
    return target_blocks(project, task.view.target)


def target_blocks(project: dict[str, Any], name: str | None) -> dict[str, Any]:
    """The blocks of the target named ``name`` (None: the first sprite, as a project loads)."""
    for t in project["targets"]:
        if (name is None and not t.get("isStage")) or t.get("name") == name:
            return t.get("blocks", {})
    return {}


def relation_kind(task: DragTask, project: dict[str, Any] | None = None) -> str:
    """The task's relation kind (see the module's list)."""
    rel = task.main_relation()
    if rel.rel == "above":
        return "above"
    blocks = edited_blocks(task, project)
    if rel.rel == "below":
        block = blocks.get(rel.block)
        return "insert" if isinstance(block, dict) and block.get("next") else "below"
    if rel.input == "SUBSTACK2":
        return "else"
    if (rel.input or "").startswith("SUBSTACK"):
        return "c_mouth"
    return (
        "condition" if _input_kind(blocks.get(rel.block), rel.input) == "boolean" else "value_slot"
    )


def source_kind(task: DragTask, project: dict[str, Any] | None = None) -> str:
    """Where the dragged block comes from."""
    if task.source.origin == "flyout":
        return "palette"
    block = edited_blocks(task, project).get(task.source.block or "")
    return "canvas_stack" if isinstance(block, dict) and block.get("next") else "canvas_block"


def source_shape(task: DragTask, project: dict[str, Any] | None = None) -> str:
    """The dragged block's shape."""
    from scratch_gym.program import catalogue

    if task.source.origin == "flyout":
        opcode = task.source.opcode or ""
    else:
        block = edited_blocks(task, project).get(task.source.block or "")
        opcode = block.get("opcode", "") if isinstance(block, dict) else ""
    if opcode in ("data_variable", "data_listcontents"):
        return "variable"
    spec = catalogue.get(opcode)
    if spec is None:
        return "stack"
    return "c" if spec.shape in ("c1", "c2") else spec.shape


def _input_kind(block: Any, name: str | None) -> str | None:
    from scratch_gym.program import catalogue

    if not isinstance(block, dict):
        return None
    spec = catalogue.get(block.get("opcode", ""))
    if spec is None:
        return None
    return next((a.kind for a in spec.args if a.name == name), None)
