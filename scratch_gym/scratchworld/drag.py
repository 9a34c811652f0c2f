"""Import ScratchWorld's own Single-Step Drag tasks into the single-drag suite.

The task files (:mod:`scratch_gym.scratchworld.checkout` has the whole layout)::

    <root>/single_step_drag_benchmark/tasks/T{1,2}_NNN.json   id, category (T1/T2), instruction,
                                                    init_project, evaluation_config{...}
    <root>/scratch-gui/static/<init_project>.sb3    the project each task starts from

Each file becomes a single-drag :class:`~scratch_gym.single_drag.tasks.task.DragTask` that carries the
.sb3's own project.json (block ids kept: the editor's VM keeps them on load); its feasible regions
are recomputed by BFS in this editor (ScratchWorld's ``feasible_points`` were measured in theirs;
see :mod:`scratch_gym.suites.single_drag` for the cache).

How ScratchWorld's set-up maps onto a task's :class:`~scratch_gym.single_drag.tasks.task.View`
(their runner: load the project, switch to the small stage, run ``switch_sprite_actions`` then
``locate_target_actions``, then set ``workspace_state``):

==============================  ============================================================
ScratchWorld                    scratch-gym
==============================  ============================================================
toggle_stage (small stage)      ``view.stage_size = "small"`` (the GUI's stage size; the code
                                area is wider, so their screen points land on the same blocks)
switch_sprite_actions (a click  ``view.target``: the name of the target (sprite or ``Stage``)
in the sprite pane; ``sprite``) that holds ``reference_block_id`` (the editing target is set
                                directly in the VM)
locate_target_actions (a click  ``view.category``: the category of the dragged block's opcode
on the category menu)           (``data_`` -> variables, ...), ``view.flyout_offset = 0`` (a
                                category click scrolls the palette to the category's top)
workspace_state {tx, ty,        ``view.translate = (tx, ty)``, ``view.scale = scale``: the
scale} (set as the canvas'      workspace scrolled (through Blockly, so later resizes keep it)
SVG transform; ``pan_canvas_    until the canvas' translation is (tx, ty); past the scroll
actions`` made it)              limits it is set by hand, as their runner does
                                (``pan_canvas_actions`` is how their authors reached the state)
target_block_id (canvas) or     ``source``: ``{from: canvas, block: id}``, or ``{from: flyout,
null with use_flyout (palette)  opcode, nth}`` (``nth``: for ``data_variable`` with
                                ``variable_name``, that variable's place in the palette's
                                alphabetical list)
connection_type next            goal ``below`` reference (reference.next is the dragged block)
connection_type parent          goal ``above`` reference (the reference follows the dragged
                                stack)
connection_type substack_1/_2   goal ``input`` SUBSTACK / SUBSTACK2 of the reference
connection_type input           goal ``input`` ``target_input_name`` of the reference
drag_start_point,               kept in ``meta`` (for checks); regions are recomputed
first_valid_point, feasible_*
==============================  ============================================================

T1 tasks (next/parent) count as ``direct_connection``, T2 (substack/input) as
``slot_insertion``.
"""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path
from typing import Any

from scratch_gym.program.projects import project_json
from scratch_gym.scratchworld.checkout import (
    DRAG_TASKS_DIR,
    ID_PREFIX,
    NOT_A_CHECKOUT,
    STATIC_DIR,
    locate,
)
from scratch_gym.single_drag.tasks.task import DragTask, Relation, Source, View

KIND_OF_CATEGORY = {"T1": "direct_connection", "T2": "slot_insertion"}
CONNECTION_TYPES = ("next", "parent", "substack_1", "substack_2", "input")


class ScratchWorldDragError(ValueError):
    """A missing or malformed ScratchWorld checkout or task file (the message names it)."""


def tasks_folder(checkout: str | Path) -> Path:
    """The checkout's single-drag task folder (clear errors when it is not a checkout)."""
    folders = {
        DRAG_TASKS_DIR: "{root} is not a ScratchWorld checkout with the Single-Step Drag "
        "benchmark: {folder}/ is missing",
        STATIC_DIR: NOT_A_CHECKOUT,
    }
    return locate(checkout, folders, ScratchWorldDragError) / DRAG_TASKS_DIR


def task_files(checkout: str | Path) -> list[Path]:
    folder = tasks_folder(checkout)
    files = sorted(folder.glob("T*_*.json"))
    if not files:
        raise ScratchWorldDragError(f"{folder}: no task files (T1_*.json, T2_*.json)")
    return files


def load_scratchworld_drag_tasks(
    checkout: str | Path, ids: list[str] | None = None
) -> list[DragTask]:
    """The checkout's Single-Step Drag tasks (all, or those named by ``ids``: ``T1_001`` or
    ``scratchworld-T1_001``), sorted by id, without regions."""
    files = task_files(checkout)
    if ids:
        wanted = [i.removeprefix(ID_PREFIX) for i in ids]
        by_stem = {p.stem: p for p in files}
        missing = [i for i in wanted if i not in by_stem]
        if missing:
            raise KeyError(
                f"no ScratchWorld single-drag task(s) {', '.join(missing)} in {files[0].parent}"
            )
        files = [by_stem[i] for i in wanted]
    root = files[0].parent.parent.parent
    return [read_task(p, root) for p in files]


def read_task(path: Path, root: Path) -> DragTask:
    """One task file of checkout ``root`` as a single-drag task (errors name the file)."""

    def fail(message: str) -> ScratchWorldDragError:
        return ScratchWorldDragError(f"{path}: {message}")

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise fail(f"not a readable JSON task file ({exc})") from None
    if not isinstance(data, dict):
        raise fail("not a task object")
    for key in ("id", "category", "instruction", "init_project", "evaluation_config"):
        if key not in data:
            raise fail(f"missing field {key!r}")
    cfg = data["evaluation_config"]
    if not isinstance(cfg, dict):
        raise fail("evaluation_config must be an object")
    for key in ("target_block_opcode", "reference_block_id", "connection_type", "workspace_state"):
        if not cfg.get(key):
            raise fail(f"missing evaluation_config.{key}")
    kind = KIND_OF_CATEGORY.get(str(data["category"]))
    if kind is None:
        raise fail(f"category must be one of {sorted(KIND_OF_CATEGORY)}, got {data['category']!r}")
    project = read_project(root / STATIC_DIR / str(data["init_project"]), path)
    ref = str(cfg["reference_block_id"])
    holder = _target_holding(project, ref)
    if holder is None:
        raise fail(f"reference block {ref!r} is in no target of {data['init_project']}")
    opcode = str(cfg["target_block_opcode"])
    target_id = cfg.get("target_block_id")
    if target_id:
        if target_id not in holder.get("blocks", {}):
            raise fail(f"target block {target_id!r} is not in {holder.get('name')!r}'s blocks")
        source = Source("canvas", block=str(target_id))
        category = "motion"  # the palette as the project loads (their set-up leaves it)
    else:
        nth = 0
        if opcode == "data_variable":
            name = cfg.get("variable_name") or _quoted_variable(project, holder, data)
            if name:
                nth = _variable_place(project, holder, str(name), path)
        source = Source("flyout", opcode=opcode, nth=nth)
        category = category_of(opcode, path)
    state = cfg["workspace_state"]
    try:
        translate = (float(state["tx"]), float(state["ty"]))
        scale = float(state.get("scale", 0.675))
    except (KeyError, TypeError, ValueError):
        raise fail("evaluation_config.workspace_state needs numbers tx, ty (and scale)") from None
    view = View(
        category=category,
        scale=scale,
        target=str(holder.get("name")),
        stage_size="small",
        translate=translate,
        flyout_anchor=_palette_anchor(source, cfg),
    )
    meta: dict[str, Any] = {
        "scratchworld": {
            "file": str(path),
            "init_project": data["init_project"],
            "connection_type": cfg["connection_type"],
            "drag_start_point": cfg.get("drag_start_point"),
            "first_valid_point": cfg.get("first_valid_point"),
            "locate_target_actions": cfg.get("locate_target_actions"),
            "switch_sprite_actions": cfg.get("switch_sprite_actions"),
            "variable_name": cfg.get("variable_name"),
        }
    }
    return DragTask(
        id=f"{ID_PREFIX}{data['id']}",
        kind=kind,
        instruction=str(data["instruction"]),
        project={"sb3": str(data["init_project"])},
        view=view,
        source=source,
        goal=[goal_of(cfg, ref, path)],
        meta=meta,
        project_json=project,
    )


def _palette_anchor(source: Source, cfg: dict[str, Any]) -> tuple[str, int, float] | None:
    """For a palette block: where ScratchWorld's palette showed it (the middle of the rows of
    their feasible start points, else their drag start point), so that this editor's palette
    (its block spacing differs a little) shows it there too."""
    if source.origin != "flyout":
        return None
    points = cfg.get("feasible_start_points") or []
    ys = [float(p[1]) for p in points if isinstance(p, (list, tuple)) and len(p) == 2]
    if ys:
        y = (min(ys) + max(ys)) / 2
    elif isinstance(cfg.get("drag_start_point"), (list, tuple)):
        y = float(cfg["drag_start_point"][1])
    else:
        return None
    return (source.opcode or "", source.nth, round(y, 1))


def goal_of(cfg: dict[str, Any], ref: str, path: Path) -> Relation:
    """The goal relation of ScratchWorld's ``connection_type`` (see the module's table)."""
    kind = cfg["connection_type"]
    if kind == "next":
        return Relation("below", ref)
    if kind == "parent":
        return Relation("above", ref)
    if kind == "substack_1":
        return Relation("input", ref, "SUBSTACK")
    if kind == "substack_2":
        return Relation("input", ref, "SUBSTACK2")
    if kind == "input":
        name = cfg.get("target_input_name")
        if not name:
            raise ScratchWorldDragError(
                f"{path}: connection_type 'input' needs evaluation_config.target_input_name"
            )
        return Relation("input", ref, str(name))
    raise ScratchWorldDragError(
        f"{path}: unknown connection_type {kind!r}; known: {', '.join(CONNECTION_TYPES)}"
    )


def category_of(opcode: str, path: Path | None = None) -> str:
    """The palette category that shows ``opcode`` (from the block catalogue)."""
    from scratch_gym.program import catalogue

    try:
        category = catalogue.block(opcode).category
    except KeyError:
        raise ScratchWorldDragError(
            f"{path or 'task'}: no palette category for opcode {opcode!r}"
        ) from None
    return "myBlocks" if category == "myblocks" else category


def read_project(sb3: Path, task_file: Path) -> dict[str, Any]:
    """project.json of an .sb3 (errors name the task file and the project)."""
    if not sb3.is_file():
        raise ScratchWorldDragError(f"{task_file}: init_project {sb3} does not exist")
    try:
        project = project_json(sb3.read_bytes())
    except (zipfile.BadZipFile, KeyError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ScratchWorldDragError(
            f"{task_file}: init_project {sb3} is not an .sb3 with a project.json ({exc})"
        ) from None
    if not isinstance(project, dict) or not isinstance(project.get("targets"), list):
        raise ScratchWorldDragError(f"{task_file}: {sb3}'s project.json has no targets")
    return project


def _target_holding(project: dict[str, Any], block_id: str) -> dict[str, Any] | None:
    for target in project["targets"]:
        if block_id in (target.get("blocks") or {}):
            return target
    return None


def _quoted_variable(
    project: dict[str, Any], holder: dict[str, Any], data: dict[str, Any]
) -> str | None:
    """The variable a task without ``variable_name`` names in quotes ('speed') in its
    instruction or description, if any."""
    visible = _visible_variables(project, holder)
    text = f"{data.get('instruction', '')} {data['evaluation_config'].get('description', '')}"
    for quoted in re.findall(r"'([^']+)'", text):
        if quoted in visible:
            return quoted
    return None


def _visible_variables(project: dict[str, Any], holder: dict[str, Any]) -> set[str]:
    stage = next((t for t in project["targets"] if t.get("isStage")), None)
    names = {v[0] for v in (stage or {}).get("variables", {}).values()}
    if holder is not stage:
        names |= {v[0] for v in holder.get("variables", {}).values()}
    return names


def _variable_place(project: dict[str, Any], holder: dict[str, Any], name: str, path: Path) -> int:
    """Where variable ``name`` is among the palette's variable reporters of target ``holder``
    (the stage's and the target's own, sorted by name as the palette sorts them)."""
    ordered = sorted(_visible_variables(project, holder), key=lambda n: (n.lower(), n))
    if name not in ordered:
        raise ScratchWorldDragError(f"{path}: variable {name!r} is not visible to the target")
    return ordered.index(name)
