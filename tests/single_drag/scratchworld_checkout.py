"""A tiny synthetic ScratchWorld checkout in their Single-Step Drag format (one task, T1_001: stack
the 'move' block below 'when flag clicked'), for tests that need no real checkout."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from scratch_gym.single_drag.tasks.task import build_project

# The 'move' block (s1b1) at workspace (100, 300); the canvas translated to (400, 50) at scale
# 0.675 puts it at screen (1 + 400 + 67.5, 93 + 50 + 202.5): the drag starts inside it.
TRANSLATE = (400.0, 50.0)
DRAG_START = [485, 360]


def project() -> dict:
    return build_project(
        {
            "scripts": [
                {"text": "when flag clicked", "x": 100, "y": 100},
                {"text": "move (10) steps", "x": 100, "y": 300},
            ]
        }
    )


def task_file(**changes) -> dict:
    data = {
        "id": "T1_001",
        "category": "T1",
        "instruction": "Drag the 'move' block and place it directly below 'when flag clicked'.",
        "init_project": "T1_001.sb3",
        "evaluation_config": {
            "target_block_opcode": "motion_movesteps",
            "target_block_id": "s1b1",
            "reference_block_id": "s0b1",
            "reference_block_opcode": "event_whenflagclicked",
            "connection_type": "next",
            "target_input_name": None,
            "pan_canvas_actions": [{"api": "custom_js", "args": {"fn": "", "payload": {}}}],
            "workspace_state": {
                "tx": TRANSLATE[0],
                "ty": TRANSLATE[1],
                "scale": 0.675,
                "scrollX": -TRANSLATE[0] / 0.675,
                "scrollY": -TRANSLATE[1] / 0.675,
            },
            "drag_start_point": DRAG_START,
            "first_valid_point": [560, 250],
            "feasible_points": [[560, 250]],
            "feasible_start_points": [DRAG_START],
        },
    }
    data.update(changes)
    return data


def checkout(root: Path, task: dict | str | None = None, sb3: bool = True) -> Path:
    tasks = root / "single_step_drag_benchmark" / "tasks"
    static = root / "scratch-gui" / "static"
    tasks.mkdir(parents=True)
    static.mkdir(parents=True)
    task = task_file() if task is None else task
    text = task if isinstance(task, str) else json.dumps(task)
    (tasks / "T1_001.json").write_text(text)
    if sb3:
        with zipfile.ZipFile(static / "T1_001.sb3", "w") as zf:
            zf.writestr("project.json", json.dumps(project()))
    return root
