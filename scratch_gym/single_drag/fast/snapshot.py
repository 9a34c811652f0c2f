"""A captured single-drag task: what an agent observes and what decides a drag, from the editor.

Captured once per task (its view set up on the page) and stored as one ``.npz`` file:
observations (full screenshot PNG, RL-size pixels per setting, the element list, instruction
per setting) and the drag geometry (pick map, compatible connection pairs, drag constants,
workspace and palette rects) that ``drag_model`` turns into outcomes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from scratch_gym.editor.page import EditorPage
from scratch_gym.single_drag.drag_model import MODEL_VERSION, Pair
from scratch_gym.single_drag.env_parts import read_elements
from scratch_gym.single_drag.feasible.capture import DragCapture, capture_drag
from scratch_gym.single_drag.tasks.instructions import SETTINGS, instruction_for, mark_start
from scratch_gym.single_drag.tasks.task import DragTask, task_from_json

FORMAT = 1
EDITOR_VERSION = "15.2.0"  # web/scratch-editor/package.json (checked by a test)


class SnapshotError(ValueError):
    """A snapshot file that is missing, corrupt or from another editor or format."""


@dataclass
class Snapshot(DragCapture):
    """A drag capture with what an agent observes."""

    pixels: dict[str, np.ndarray]  # setting -> (h, w, 3) uint8
    screenshot_png: bytes
    elements: list[dict[str, Any]]

    @property
    def obs_size(self) -> tuple[int, int]:
        h, w = self.pixels["baseline"].shape[:2]
        return (w, h)

    def instruction(self, setting: str) -> str:
        return instruction_for(self.task, setting)

    # -- files ------------------------------------------------------------------------------------
    def save(self, path: Path) -> None:
        meta = {
            "format": FORMAT,
            "editor": EDITOR_VERSION,
            "model": MODEL_VERSION,
            "task": self.task.to_json(),
            "pick_step": self.pick_step,
            "picks": self.picks,
            "formed": [p.formed for p in self.pairs],
            "intended": self.intended,
            "config": self.config,
            "scale": self.scale,
            "workspace": list(self.workspace),
            "delete_right": self.delete_right,
            "elements": self.elements,
        }
        pair_arr = np.array(
            [[p.pick, p.dx, p.dy, p.y, p.stack, p.marker] for p in self.pairs], np.float32
        ).reshape(-1, 6)
        tmp = path.with_suffix(".tmp.npz")
        np.savez_compressed(
            tmp,
            meta=np.frombuffer(json.dumps(meta).encode(), np.uint8),
            labels=self.labels,
            pairs=pair_arr,
            screenshot_png=np.frombuffer(self.screenshot_png, np.uint8),
            **{f"pixels_{k}": v for k, v in self.pixels.items()},
        )
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path) -> Snapshot:
        if not path.is_file():
            raise SnapshotError(f"{path}: no such snapshot file")
        try:
            with np.load(path) as data:
                meta = json.loads(bytes(data["meta"]).decode())
                arrays = {k: data[k] for k in data.files}
        except Exception as exc:  # zip, pickle or JSON damage all mean the same to a user
            raise SnapshotError(f"{path}: not a readable snapshot ({exc})") from exc
        if meta.get("format") != FORMAT:
            raise SnapshotError(f"{path}: snapshot format {meta.get('format')}, expected {FORMAT}")
        if meta.get("editor") != EDITOR_VERSION:
            raise SnapshotError(
                f"{path}: captured with editor {meta.get('editor')}, this is {EDITOR_VERSION}; "
                "rebuild the pool"
            )
        if meta.get("model", 1) != MODEL_VERSION:
            raise SnapshotError(
                f"{path}: its drag pairs come from drag model v{meta.get('model', 1)}, this is "
                f"v{MODEL_VERSION} (a fix changed which drags connect); rebuild the pool"
            )
        pairs = [
            Pair(
                int(row[0]),
                float(row[1]),
                float(row[2]),
                formed,
                y=float(row[3]),
                stack=int(row[4]),
                marker=bool(row[5]),
            )
            for row, formed in zip(arrays["pairs"], meta["formed"], strict=True)
        ]
        return cls(
            task=task_from_json(meta["task"], str(path)),
            pick_step=int(meta["pick_step"]),
            labels=arrays["labels"],
            picks=meta["picks"],
            pairs=pairs,
            intended=[bool(x) for x in meta["intended"]],
            config=meta["config"],
            scale=float(meta["scale"]),
            workspace=tuple(meta["workspace"]),  # type: ignore[arg-type]
            delete_right=float(meta["delete_right"]),
            pixels={s: arrays[f"pixels_{s}"] for s in SETTINGS},
            screenshot_png=bytes(arrays["screenshot_png"]),
            elements=meta["elements"],
        )


def capture(page: EditorPage, task: DragTask, obs_size: tuple[int, int] = (128, 72)) -> Snapshot:
    """Capture ``task``, whose view and regions are already set up on ``page``."""
    assert task.regions is not None, "capture after the environment's reset (regions set)"
    drag = capture_drag(page, task)
    png = page.screenshot_png()
    small = page.screenshot(obs_size)  # as the real environment takes it
    pixels = {s: small for s in SETTINGS}
    pixels["gt_start"] = mark_start(small, task.regions.anchor)
    elements = read_elements(page)
    return Snapshot(**vars(drag), pixels=pixels, screenshot_png=png, elements=elements)
