"""scratch-gym's own verdict on the project a ScratchWorld runner exported, to compare with the
verdict their runner recorded (``verdict_agreement`` of ``benchmarks/scratchworld_dropin.py``).

Both of their runners export the session's project through serve's ``export_project`` after
the agent's last action and write the ``.sb3`` into the task's result folder (``task_runner.py``:
``output_file``, just before it calls ``evaluate``; the drag runner: ``exported_file``, after its
connection check); then they delete the session. That file is the hook: the project of the same
session at the end of the run, exported by serve, so nothing needs keeping in serve.

* A ``task_runner.py`` run is judged by the task's ScratchWorld evaluation as scratch-gym runs it
  for imported tasks (:class:`~scratch_gym.scratchworld.tasks.ScratchWorldCheckout` loads the
  task, :class:`~scratch_gym.tasks.evaluator.Evaluator` scores the ``.sb3`` in a fresh page).
* A drag run is judged by the imported drag task's goal (:func:`~scratch_gym.single_drag.
  editor_drag.goal_holds` on the VM's blocks of the ``.sb3``), for the dragged block: the task's
  canvas block, or the one new block of the palette opcode.

A run without an exported file has no verdict of scratch-gym's (``ours`` None).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass
class Run:
    """One runner's run of one task: ``theirs`` is what their runner recorded as success."""

    kind: str  # "task" (task_runner.py) or "drag"
    task: str  # their task name (say_hello) or drag id (T1_001)
    label: str  # mode/agent, for the report
    theirs: bool
    sb3: Path | None  # the project their runner exported through serve
    ours: bool | None = None
    folder: Path | None = None  # a copy of the run's result folder (logs, result.json)

    @property
    def agrees(self) -> bool:
        return self.ours is not None and self.ours == self.theirs


def judge(checkout: Path, runs: list[Run]) -> list[Run]:
    """Fill each run's ``ours`` (one editor page for all)."""
    from scratch_gym.editor.page import EditorPage

    page = EditorPage().open()
    try:
        page.settle(stop_vm=True)
        drag_tasks: dict[str, Any] = {}
        for run in runs:
            if run.sb3 is None or not run.sb3.is_file():
                continue
            if run.kind == "drag":
                run.ours = _drag_verdict(page, checkout, run, drag_tasks)
            else:
                run.ours = _task_verdict(page, checkout, run)
    finally:
        page.close()
    return runs


def agreement(runs: list[Run]) -> float | None:
    """The share of runs whose two verdicts agree (a run without ours does not)."""
    return round(sum(r.agrees for r in runs) / len(runs), 3) if runs else None


def keep_failed(runs: list[Run], dest: Path) -> list[Path]:
    """Copy the result folder of every run that failed by their verdict or whose verdicts
    disagree to ``dest/<label>-<task>`` (a slash in the label becomes a dash), so that an
    intermittent failure can be read after the run; returns the folders written."""
    out = []
    for run in runs:
        if (run.theirs and run.agrees) or run.folder is None or not run.folder.is_dir():
            continue
        target = dest / f"{run.label.replace('/', '-')}-{run.task}"
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(run.folder, target)
        out.append(target)
    return out


def _task_verdict(page: Any, checkout: Path, run: Run) -> bool:
    from scratch_gym.scratchworld.tasks import ScratchWorldCheckout
    from scratch_gym.tasks import Evaluator
    from scratch_gym.tasks.projects import load_project

    task = ScratchWorldCheckout(checkout).load(run.task)
    assert run.sb3 is not None
    return bool(Evaluator(page, task).evaluate(load_project(run.sb3)).success)


def _drag_verdict(page: Any, checkout: Path, run: Run, cache: dict[str, Any]) -> bool:
    from scratch_gym.scratchworld.drag import load_scratchworld_drag_tasks
    from scratch_gym.single_drag.editor_drag import goal_holds

    if run.task not in cache:
        (cache[run.task],) = load_scratchworld_drag_tasks(checkout, [run.task])
    task = cache[run.task]
    assert run.sb3 is not None
    page.load_project(run.sb3.read_bytes())
    page.settle(stop_vm=True)
    blocks = page.bridge.vm_blocks(task.view.target)
    block = _dragged(task, blocks)
    return block is not None and goal_holds(task, blocks, block)


def _dragged(task: Any, blocks: dict[str, Any]) -> str | None:
    """The dragged block in ``blocks``: the task's canvas block, or the one block of the palette
    opcode that the starting project lacks."""
    if task.source.origin == "canvas":
        return task.source.block if task.source.block in blocks else None
    before: set[str] = set()
    for target in task.project_json["targets"]:
        before |= set(target.get("blocks") or {})
    new = [b for b, v in blocks.items() if b not in before and v.get("opcode") == task.source.opcode]  # fmt: skip
    return new[0] if len(new) == 1 else None
