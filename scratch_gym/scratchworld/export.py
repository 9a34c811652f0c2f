"""Write scratch-gym's own tasks as a ScratchWorld checkout (``scratch-gym tasks
export-scratchworld DIR``), laid out as their runner and their service read one::

    DIR/tasks/<category>/<id>.json                        their task JSON (name = id)
    DIR/tasks/all_tasks.json                              the task list (--task_list)
    DIR/scratch-gui/static/<id>.sb3                       the starting project
    DIR/scratch-gui/static/<id>_golden.sb3                the golden project (a solution)
    DIR/scratch-bench-api/api/evaluation_scripts/<id>.js  the script that names the task
    DIR/scratch-gym-export.json                           what was exported (ids, digests)

``scratch-gym serve --scratchworld DIR`` serves it: ``evaluate`` scores an exported task with its
own tests (:mod:`scratch_gym.scratchworld.exported`). Every task is checked before anything is
written; a task that cannot be expressed is an :class:`ExportProblems` naming each and why.
"""

from __future__ import annotations

import io
import json
import math
import shutil
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scratch_gym.scratchworld.checkout import (
    GOLDEN_SUFFIX,
    SCRIPTS_DIR,
    STATIC_DIR,
    TASKS_DIR,
    UTILS_FILE,
)
from scratch_gym.scratchworld.exported import script_text, task_digest
from scratch_gym.tasks.projects import load_project
from scratch_gym.tasks.schema import KNOWN_CATEGORIES, ProjectRef, Task
from scratch_gym.tasks.test_api import FPS

MANIFEST = "scratch-gym-export.json"
TASK_LIST = "all_tasks.json"
RESERVED = {Path(UTILS_FILE).stem}  # their service loads evaluation_utils.js as a helper


class ExportProblems(ValueError):
    """Tasks that cannot be exported as ScratchWorld tasks, each with why."""

    def __init__(self, problems: dict[str, str]) -> None:
        self.problems = problems
        lines = "; ".join(f"{task}: {why}" for task, why in sorted(problems.items()))
        super().__init__(f"{len(problems)} task(s) cannot be exported to ScratchWorld: {lines}")


@dataclass(frozen=True)
class Exported:
    """One exported task: its id, category, digest and the files written (relative to DIR)."""

    id: str
    category: str
    digest: str
    tests: int
    files: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "category": self.category, "digest": self.digest,
                "tests": self.tests, "files": list(self.files)}  # fmt: skip


def problem(task: Task) -> str | None:
    """Why ``task`` cannot be a ScratchWorld task, or None."""
    if task.external is not None:
        return "it is scored by an imported suite, not by scratch-gym tests"
    if task.category not in KNOWN_CATEGORIES:
        return (
            f"category {task.category!r}: their runner and results.py know only "
            f"{', '.join(KNOWN_CATEGORIES)}"
        )
    if task.start is None:
        return "it has no starting project (their task JSON needs initial_project)"
    if task.golden is None:
        return "it has no golden project"
    if not task.tests:
        return "it has no tests"
    if task.id in RESERVED or task.id.endswith(GOLDEN_SUFFIX.removesuffix(".sb3")):
        return f"the name {task.id!r} is taken by their layout (evaluation_utils, *_golden)"
    return None


def sb3_bytes(ref: ProjectRef) -> bytes:
    """A task's project as .sb3 bytes (a project.json without assets is zipped as it is: the
    editor's built-in assets, the cat and the backdrop, are not packed)."""
    data = load_project(ref)
    if isinstance(data, bytes):
        return data
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("project.json", json.dumps(data))
    return buf.getvalue()


def task_json(task: Task, digest: str) -> dict[str, Any]:
    """Their task JSON for ``task`` (``evaluation.timeout``: the seconds of virtual time its
    tests may run in all)."""
    seconds = math.ceil(sum(t.budget.frames for t in task.tests) / FPS)
    names = ", ".join(t.name for t in task.tests)
    return {
        "name": task.id,
        "description": f"scratch-gym task {task.id} ({task.category}, {task.tags.difficulty})",
        "type": task.category,
        "instruction": " ".join(task.instruction.split()),
        "initial_project": f"{task.id}.sb3",
        "evaluation": {
            "function": task.id,
            "timeout": seconds,
            "description": f"scratch-gym's unit tests, run by scratch-gym serve: {names}",
        },
        "scratch_gym": {
            "id": task.id,
            "digest": digest,
            "tests": [t.name for t in task.tests],
            "difficulty": task.tags.difficulty,
            "step_budget": task.step_budget,
        },
    }


def _check_target(out: Path, force: bool) -> None:
    if not out.exists():
        return
    if not out.is_dir():
        raise NotADirectoryError(f"{out} is not a folder")
    if not any(out.iterdir()):
        return
    if not (out / MANIFEST).is_file():
        raise FileExistsError(f"{out} is not empty and holds no earlier export ({MANIFEST})")
    if not force:
        raise FileExistsError(f"{out} holds an earlier export: give --force to replace it")
    for part in (TASKS_DIR, STATIC_DIR.parts[0], SCRIPTS_DIR.parts[0], MANIFEST):
        path = out / part
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()


def export_tasks(tasks: list[Task], out: str | Path, force: bool = False) -> list[Exported]:
    """Write ``tasks`` to ``out`` (absent, empty, or with ``force`` an earlier export, replaced);
    raises :class:`ExportProblems` before writing anything when a task cannot be exported."""
    if not tasks:
        raise ValueError("no tasks to export")
    problems = {t.id: why for t in tasks if (why := problem(t))}
    if problems:
        raise ExportProblems(problems)
    out = Path(out).expanduser().resolve()
    _check_target(out, force)
    for folder in (STATIC_DIR, SCRIPTS_DIR, *(TASKS_DIR / c for c in KNOWN_CATEGORIES)):
        (out / folder).mkdir(parents=True, exist_ok=True)
    done: list[Exported] = []
    for task in sorted(tasks, key=lambda t: (t.category, t.id)):
        digest = task_digest(task)
        files = {
            TASKS_DIR / task.category / f"{task.id}.json": (
                json.dumps(task_json(task, digest), indent=2, ensure_ascii=False) + "\n"
            ).encode(),
            STATIC_DIR / f"{task.id}.sb3": sb3_bytes(task.start),
            STATIC_DIR / f"{task.id}{GOLDEN_SUFFIX}": sb3_bytes(task.golden),
            SCRIPTS_DIR / f"{task.id}.js": script_text(task, digest).encode(),
        }
        for rel, data in files.items():
            (out / rel).write_bytes(data)
        names = tuple(str(rel) for rel in files)
        done.append(Exported(task.id, task.category, digest, len(task.tests), names))
    listing: dict[str, list[str]] = {}
    for e in done:
        listing.setdefault(e.category, []).append(f"{e.id}.json")
    (out / TASKS_DIR / TASK_LIST).write_text(json.dumps(listing, indent=2) + "\n")
    manifest = {"format": 1, "task_list": str(TASKS_DIR / TASK_LIST),
                "tasks": [e.to_json() for e in done]}  # fmt: skip
    (out / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    return done
