"""The single-drag task: a project, the editor view it starts in, the block to drag, the goal.

One folder per task, ``tasks/single_drag/<id>/``, as for the other suites: ``task.toml`` (written
by hand) and ``regions.json`` (its feasible regions, computed by ``scratch-gym single-drag
--recompute-regions``)::

    id = "dc-01"
    kind = "direct_connection"
    instruction = "Drag the 'turn right' block from the palette and attach it below 'move'."

    [view]
    category = "motion"
    flyout_offset = 0
    scroll_x = 0
    scroll_y = 0
    scale = 0.675

    [source]
    from = "flyout"
    opcode = "motion_turnright"

    [[goal]]
    rel = "below"
    block = "s0b2"

    [project]
    variables = ["score"]

    [[project.scripts]]
    x = 40
    y = 60
    text = '''
    when flag clicked
    move (10) steps
    '''

An imported task (``scratchworld.drag``) carries a ready ``project_json`` instead of building
its project from ``project``. Script ``i`` gets block ids ``s{i}b1, s{i}b2, ...`` in text order. ``source`` is a flyout block
(``opcode``, ``nth`` among equal opcodes) or a canvas block (``block`` id). Goal relations, all of
which must hold in the VM for the dragged block D: ``below`` (block.next is D), ``above`` (block
follows D in D's stack), ``input`` (block's input ``input`` holds D; SUBSTACK/SUBSTACK2 too).
"""

from __future__ import annotations

import copy
import json
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from scratch_gym.paths import SINGLE_DRAG_DIR, tasks_dir
from scratch_gym.program.projects import empty_project
from scratch_gym.single_drag.tasks.regions import Regions

KINDS = ("direct_connection", "slot_insertion")
RELATIONS = ("below", "above", "input")
CATEGORIES = (
    "motion",
    "looks",
    "sound",
    "events",
    "control",
    "sensing",
    "operators",
    "variables",
    "myBlocks",
    "pen",
)
DEFAULT_SCALE = 0.675


STAGE_SIZES = ("large", "small")


@dataclass(frozen=True)
class View:
    """The editor view a task starts in: palette category and scroll, workspace scroll and zoom.

    Optional (imported ScratchWorld tasks): ``target``, the sprite (or stage, by name) being
    edited (None: the first sprite, as the project loads); ``stage_size``, the GUI's stage size
    (the small stage leaves a wider code area); ``translate``, the workspace canvas' translation
    (tx, ty) in screen px, scrolled to after the scroll (set by hand past the scroll limits);
    ``flyout_anchor`` (opcode, nth, y): the palette scrolled on until the nth palette block of
    that opcode is centred at screen y.
    """

    category: str = "motion"
    flyout_offset: float = 0.0  # screen px past the category's top in the palette
    scroll_x: float = 0.0
    scroll_y: float = 0.0
    scale: float = DEFAULT_SCALE
    target: str | None = None
    stage_size: str = "large"
    translate: tuple[float, float] | None = None
    flyout_anchor: tuple[str, int, float] | None = None

    def to_args(self) -> dict[str, Any]:
        """The ``single_drag.view`` bridge call's arguments (also the task file's ``view``)."""
        out = asdict(self)
        for key, default in OPTIONAL_VIEW.items():
            if out[key] == default:
                del out[key]
        if self.translate is not None:
            out["translate"] = [float(v) for v in self.translate]
        if self.flyout_anchor is not None:
            opcode, nth, y = self.flyout_anchor
            out["flyout_anchor"] = [str(opcode), int(nth), float(y)]
        return out


OPTIONAL_VIEW = {"target": None, "stage_size": "large", "translate": None, "flyout_anchor": None}


@dataclass(frozen=True)
class Source:
    """The block to drag: a palette (flyout) block by opcode, or a canvas block by id."""

    origin: str  # "flyout" or "canvas"
    opcode: str | None = None
    nth: int = 0
    block: str | None = None

    def to_json(self) -> dict[str, Any]:
        if self.origin == "flyout":
            out: dict[str, Any] = {"from": "flyout", "opcode": self.opcode}
            if self.nth:
                out["nth"] = self.nth
            return out
        return {"from": "canvas", "block": self.block}


@dataclass(frozen=True)
class Relation:
    rel: str
    block: str
    input: str | None = None

    def to_json(self) -> dict[str, Any]:
        out = {"rel": self.rel, "block": self.block}
        if self.input:
            out["input"] = self.input
        return out


@dataclass
class DragTask:
    """One single-drag task; ``regions`` is None until computed."""

    id: str
    kind: str
    instruction: str
    project: dict[str, Any]
    view: View
    source: Source
    goal: list[Relation]
    regions: Regions | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    project_json: dict[str, Any] | None = None  # a ready project.json (imported tasks)
    suite = "single-drag"

    @property
    def category(self) -> str:
        """The row it counts in: its kind."""
        return self.kind

    def main_relation(self) -> Relation:
        """The goal relation the drag makes directly (an input or below), else the first."""
        return next((g for g in self.goal if g.rel in ("input", "below")), self.goal[0])

    def reset_options(self) -> dict[str, Any]:
        """``SingleDragEnv.reset(options=...)`` for this task."""
        return {"task": self}

    def build_project(self) -> dict[str, Any]:
        """The project.json this task starts from: its ready ``project_json`` (a copy), else
        built from the ``project`` spec with the program model."""
        if self.project_json is not None:
            return copy.deepcopy(self.project_json)
        return build_project(self.project)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "instruction": self.instruction,
            "project": self.project,
            "view": self.view.to_args(),
            "source": self.source.to_json(),
            "goal": [g.to_json() for g in self.goal],
        }
        if self.meta:
            out["meta"] = self.meta
        if self.project_json is not None:
            out["project_json"] = self.project_json
        if self.regions is not None:
            out["regions"] = self.regions.to_json()
        return out


def task_from_json(data: dict[str, Any], where: str = "task") -> DragTask:
    """Validate and read one task dict; errors name ``where`` and the field."""

    def need(key: str) -> Any:
        if key not in data:
            raise ValueError(f"{where}: missing field {key!r}")
        return data[key]

    kind = need("kind")
    if kind not in KINDS:
        raise ValueError(f"{where}: kind must be one of {KINDS}, got {kind!r}")
    src = need("source")
    if src.get("from") == "flyout" and src.get("opcode"):
        source = Source("flyout", opcode=src["opcode"], nth=int(src.get("nth", 0)))
    elif src.get("from") == "canvas" and src.get("block"):
        source = Source("canvas", block=src["block"])
    else:
        raise ValueError(
            f"{where}: source must be {{from: flyout, opcode}} or {{from: canvas, block}}"
        )
    goal = []
    for rel in need("goal"):
        if rel.get("rel") not in RELATIONS or not rel.get("block"):
            raise ValueError(f"{where}: goal relation {rel!r} needs rel in {RELATIONS} and block")
        if rel["rel"] == "input" and not rel.get("input"):
            raise ValueError(f"{where}: an 'input' relation needs the input's name")
        goal.append(Relation(rel["rel"], rel["block"], rel.get("input")))
    if not goal:
        raise ValueError(f"{where}: goal must hold at least one relation")
    view_args = dict(need("view"))
    try:
        if view_args.get("translate") is not None:
            tx, ty = view_args["translate"]
            view_args["translate"] = (float(tx), float(ty))
        if view_args.get("flyout_anchor") is not None:
            opcode, nth, y = view_args["flyout_anchor"]
            view_args["flyout_anchor"] = (str(opcode), int(nth), float(y))
        view = View(**view_args)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{where}: view: {exc}") from None
    if view.category not in CATEGORIES:
        raise ValueError(f"{where}: view.category must be one of {CATEGORIES}")
    if view.stage_size not in STAGE_SIZES:
        raise ValueError(f"{where}: view.stage_size must be one of {STAGE_SIZES}")
    regions = Regions.from_json(data["regions"]) if data.get("regions") else None
    return DragTask(
        id=str(need("id")),
        kind=kind,
        instruction=str(need("instruction")),
        project=dict(need("project")),
        view=view,
        source=source,
        goal=goal,
        regions=regions,
        meta=dict(data.get("meta", {})),
        project_json=_project_json(data.get("project_json"), where),
    )


def _project_json(value: Any, where: str) -> dict[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("targets"), list):
        raise ValueError(f"{where}: project_json must be a project.json object with targets")
    return dict(value)


def build_project(spec: dict[str, Any]) -> dict[str, Any]:
    """The empty project with the spec's scripts (scratchblocks text at given positions) in the
    edited target: ``target`` names it (default ``Sprite1``; ``Stage`` for the stage, or one of
    ``sprites``, extra sprites made like Sprite1). Variables and lists are global (the stage's);
    ``extensions`` are loaded (pen also when a script uses pen blocks)."""
    from scratch_gym.program import parse_scripts

    project = empty_project()
    stage, sprite = project["targets"][0], project["targets"][1]
    for order, name in enumerate(spec.get("sprites", []), start=2):
        other = copy.deepcopy(sprite)
        other.update(name=name, blocks={}, layerOrder=order, x=sprite["x"] + 40 * order)
        project["targets"].append(other)
    by_name = {t["name"]: t for t in project["targets"]}
    target_name = spec.get("target") or "Sprite1"
    if target_name not in by_name:
        raise ValueError(f"project target {target_name!r} is not Stage, Sprite1 or in 'sprites'")
    target = by_name[target_name]
    for name in spec.get("variables", []):
        stage["variables"][f"var-{name}"] = [name, 0]
    for name in spec.get("lists", []):
        stage["lists"][f"list-{name}"] = [name, []]
    for i, script in enumerate(spec.get("scripts", [])):
        result = parse_scripts(
            script["text"],
            stage=stage,
            target=target,
            id_prefix=f"s{i}",
            origin=(script.get("x", 40), script.get("y", 60)),
        )
        result.apply_to(target, stage)
    extensions = list(spec.get("extensions", []))
    if any(b.get("opcode", "").startswith("pen_") for b in target["blocks"].values()):
        extensions.append("pen")
    project["extensions"] = sorted(set(extensions))
    return project


# -- files ------------------------------------------------------------------------------------------
TASK_FILE = "task.toml"  # the authored task
REGIONS_FILE = "regions.json"  # its feasible regions, computed by BFS (``--recompute-regions``)


def task_dir() -> Path:
    return tasks_dir() / SINGLE_DRAG_DIR


def task_path(task_id: str, folder: Path | None = None) -> Path:
    """The task's folder: ``tasks/single_drag/<id>/``."""
    return (folder or task_dir()) / task_id


def read_task(folder: Path) -> DragTask:
    """The task in ``folder`` (``task.toml``, and ``regions.json`` when computed); errors name the
    file."""
    path = folder / TASK_FILE
    try:
        data = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise ValueError(f"{folder}: no {TASK_FILE}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not valid TOML: {exc}") from None
    for script in data.get("project", {}).get("scripts", []):
        if isinstance(script.get("text"), str):  # a multi-line string ends with its newline
            script["text"] = script["text"].removesuffix("\n")
    regions = folder / REGIONS_FILE
    if regions.is_file():
        try:
            data["regions"] = json.loads(regions.read_text())
        except json.JSONDecodeError as exc:
            raise ValueError(f"{regions}: not valid JSON: {exc}") from None
    if data.get("id") != folder.name:
        raise ValueError(f"{path}: id {data.get('id')!r} differs from its folder {folder.name!r}")
    return task_from_json(data, str(path))


def load_tasks(ids: list[str] | None = None, folder: Path | None = None) -> list[DragTask]:
    """The stored tasks (all, or those named), sorted by id."""
    folder = folder or task_dir()
    tasks = [read_task(p.parent) for p in sorted(folder.glob(f"*/{TASK_FILE}"))]
    if ids:
        by_id = {t.id: t for t in tasks}
        missing = [i for i in ids if i not in by_id]
        if missing:
            raise KeyError(unknown_tasks_message(missing, sorted(by_id), folder))
        return [by_id[i] for i in ids]
    return tasks


def unknown_tasks_message(missing: list[str], known: list[str], folder: Path) -> str:
    """What was asked that is not there, the closest known ids, and where the known ones are."""
    import difflib

    hints = []
    for task_id in missing:
        close = difflib.get_close_matches(task_id, known, n=1)
        hints.append(f"{task_id} (did you mean {close[0]}?)" if close else task_id)
    return (
        f"unknown single-drag task(s): {', '.join(hints)} (allowed: the {len(known)} task ids "
        f"in {folder}, e.g. {', '.join(known[:3])})"
    )


def save_regions(task: DragTask, folder: Path | None = None) -> Path:
    """Write ``task``'s regions to ``<folder>/<id>/regions.json`` (the task file is authored, and
    left as it is)."""
    if task.regions is None:
        raise ValueError(f"task {task.id}: no regions to save")
    path = task_path(task.id, folder) / REGIONS_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(task.regions.to_json()) + "\n")
    return path


def write_task(task: DragTask, folder: Path) -> Path:
    """Write ``task`` as a stored task: ``<folder>/<id>/task.toml``, and ``regions.json`` when it
    has regions. ``read_task`` reads it back equal."""
    from scratch_gym.toml_text import dumps

    data = task.to_json()
    data.pop("regions", None)
    path = task_path(task.id, folder) / TASK_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(data))
    if task.regions is not None:
        save_regions(task, folder)
    return path
