"""A ScratchWorld checkout on disk: where its parts are, the one place that finds and checks one,
and its golden projects.

The checkout is read where the user keeps it (nothing is copied into this repository)::

    <root>/tasks/{create,debug,extend,compute}/<name>.json      tasks (scratchworld.tasks)
    <root>/scratch-gui/static/<project>.sb3                      starting projects
    <root>/scratch-gui/static/<stem>_golden.sb3                  reference solutions
    <root>/scratch-bench-api/api/evaluation_scripts/<function>.js   evaluation scripts, and
                                                                 evaluation_utils.js
    <root>/single_step_drag_benchmark/tasks/T{1,2}_NNN.json      drag tasks (scratchworld.drag)
    <root>/visual_perception_benchmark/tasks/<N>.json            perception items, and
    <root>/visual_perception_benchmark/screenshots_final/<png>   their screenshots
                                                                 (scratchworld.perception)
    <root>/run_visual_perception_benchmark.py, results_visual_perception_benchmark.py

:func:`locate` finds a checkout and checks that it holds the folders an importer reads; each
importer raises its own error class with its own wording of what is missing.

**Golden projects.** A checkout ships the reference solutions next to the starting projects, as
``scratch-gui/static/<stem>_golden.sb3``, matched to tasks by name:

* ``<task name>_golden.sb3`` when it exists (create, compute and extend tasks:
  ``calculate_gcd`` -> ``calculate_gcd_golden.sb3``);
* else the longest ``<stem>_golden.sb3`` whose stem starts the task name followed by ``_`` (debug
  tasks fix one bug of a shared project: ``maze_starter_goal_detection_error`` ->
  ``maze_starter_golden.sb3``).

``*_golden_old.sb3`` files are earlier versions and never matched.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

TASKS_DIR = Path("tasks")
STATIC_DIR = Path("scratch-gui") / "static"
SCRIPTS_DIR = Path("scratch-bench-api") / "api" / "evaluation_scripts"
UTILS_FILE = "evaluation_utils.js"
DRAG_DIR = Path("single_step_drag_benchmark")
DRAG_TASKS_DIR = DRAG_DIR / "tasks"
PERCEPTION_DIR = Path("visual_perception_benchmark")
PERCEPTION_TASKS_DIR = PERCEPTION_DIR / "tasks"
SCREENSHOTS_DIR = PERCEPTION_DIR / "screenshots_final"
RESULTS_SCRIPT = "results_visual_perception_benchmark.py"
RUNNER_SCRIPT = "run_visual_perception_benchmark.py"
ID_PREFIX = "scratchworld-"  # ids of imported tasks and drag tasks: scratchworld-<name>
GOLDEN_SUFFIX = "_golden.sb3"

NOT_A_CHECKOUT = "{root} is not a ScratchWorld checkout: {folder}/ is missing"


def locate(
    checkout: str | Path,
    folders: Mapping[Path, str],
    error: Callable[[str], Exception],
) -> Path:
    """The checkout's root (``~`` expanded, resolved), checked to be a folder that holds each of
    ``folders`` (folder -> the message when it is missing, with ``{root}`` and ``{folder}``);
    raises ``error(message)`` on the first that is not there."""
    root = Path(checkout).expanduser().resolve()
    if not root.is_dir():
        raise error(f"{root}: no such ScratchWorld checkout (not a folder)")
    for folder, message in folders.items():
        if not (root / folder).is_dir():
            raise error(message.format(root=root, folder=folder))
    return root


def checkout_file(checkout: str | Path, name: str, error: Callable[[str], Exception]) -> Path:
    """The file ``name`` at the checkout's root (one of its scripts); ``error`` if it has none."""
    root = Path(checkout).expanduser().resolve()
    path = root / name
    if not path.is_file():
        raise error(f"{root} has no {name}")
    return path


def golden_stems(root: str | Path) -> dict[str, Path]:
    """Every ``<stem>_golden.sb3`` of a checkout's static folder, by stem."""
    static = Path(root) / STATIC_DIR
    return {p.name[: -len(GOLDEN_SUFFIX)]: p for p in sorted(static.glob(f"*{GOLDEN_SUFFIX}"))}


def match_golden(name: str, stems: dict[str, Path]) -> Path | None:
    """The golden project of the task ``name`` (see the module docstring), or None."""
    if name in stems:
        return stems[name]
    prefixes = [s for s in stems if name.startswith(s + "_")]
    return stems[max(prefixes, key=len)] if prefixes else None
