"""Rendering scenes in the editor and the benchmark's question set (live or exported as PNG + JSON).

``scene_questions(page, seed, index)`` renders scene ``index`` and returns its screenshot and up to
``per_scene`` questions (one of each kind first, in an order drawn from the seed), so the live
environment and an export with the same seed ask the same questions.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from scratch_gym.editor.page import NEUTRAL_POINT, EditorPage
from scratch_gym.perception.questions import KINDS, PerceptionQuestion, SceneState, make_questions
from scratch_gym.perception.scenes import Scene, make_scene

DEFAULT_SEED = 0
DEFAULT_SCREENS = 120
PER_SCENE = 3
FORMAT = "scratch-gym-perception/1"


@dataclass
class RenderedScene:
    scene: Scene
    png: bytes
    state: SceneState
    questions: list[PerceptionQuestion]

    def image(self) -> np.ndarray:
        with Image.open(io.BytesIO(self.png)) as img:
            return np.asarray(img.convert("RGB"))


def render(page: EditorPage, scene: Scene) -> tuple[bytes, SceneState]:
    """Load the scene's project at the fixed view, show its category, and capture it."""
    page.load_project(scene.project())
    page.settle()
    page.bridge.view_reset()
    page.settle(stop_vm=True)
    if scene.category != "Motion":
        items = page.bridge.elements_list()
        cat = next(e for e in items if e["type"] == "category" and e["text"] == scene.category)
        page.click(cat["cx"], cat["cy"])
    page.mouse_move(*NEUTRAL_POINT)
    page.settle(stop_vm=True)
    return page.screenshot_png(), SceneState.read(page)


# Subtypes drawn per kind: yes and no equally likely where both exist.
SUBTYPE_WEIGHTS = {
    "connection": {"attached": 2, "near_miss": 2, "separate": 1},
    "existence": {"visible": 2, "confusable": 1, "occluded": 1},
    "field": {"value": 2, "dropdown": 1},
}


def choose(
    candidates: list[PerceptionQuestion], rng: random.Random, per_scene: int
) -> list[PerceptionQuestion]:
    """Up to ``per_scene`` questions, one per kind in a random kind order; within a kind a subtype
    is drawn by ``SUBTYPE_WEIGHTS`` among those the scene offers (near misses before mere
    separate scripts)."""
    shuffled = list(candidates)
    rng.shuffle(shuffled)
    kinds = list(KINDS)
    rng.shuffle(kinds)
    chosen = []
    for kind in kinds:
        weights = dict(SUBTYPE_WEIGHTS[kind])
        if any(q.subtype == "near_miss" for q in shuffled):
            weights.pop("separate", None)
        offered = [s for s in weights if any(q.kind == kind and q.subtype == s for q in shuffled)]
        if not offered:
            continue
        subtype = rng.choices(offered, [weights[s] for s in offered])[0]
        chosen.append(next(q for q in shuffled if q.kind == kind and q.subtype == subtype))
    chosen += [q for q in shuffled if q not in chosen]
    return chosen[:per_scene]


def scene_questions(
    page: EditorPage, seed: int, index: int, per_scene: int = PER_SCENE
) -> RenderedScene:
    scene = make_scene(seed, index)
    png, state = render(page, scene)
    rng = random.Random(f"questions:{seed}:{index}")
    questions = choose(make_questions(state, index, rng), rng, per_scene)
    for k, q in enumerate(questions):
        q.id = f"s{seed}-{index:04d}-{k}"
    return RenderedScene(scene, png, state, questions)


def generate(
    page: EditorPage, seed: int = DEFAULT_SEED, screens: int = DEFAULT_SCREENS,
    per_scene: int = PER_SCENE,
) -> Iterator[RenderedScene]:  # fmt: skip
    for index in range(screens):
        yield scene_questions(page, seed, index, per_scene)


def export(rendered: list[RenderedScene], out: Path, seed: int) -> dict[str, Any]:
    """Write ``images/scene-NNNN.png`` and ``questions.json``; returns the JSON written."""
    (out / "images").mkdir(parents=True, exist_ok=True)
    questions = []
    for r in rendered:
        name = f"images/scene-{r.scene.index:04d}.png"
        (out / name).write_bytes(r.png)
        for q in r.questions:
            questions.append({**q.to_dict(), "image": name, "features": r.scene.features})
    data = {"format": FORMAT, "seed": seed, "screens": len(rendered), "questions": questions}
    (out / "questions.json").write_text(json.dumps(data, indent=1, ensure_ascii=False))
    return data


def load(folder: str | Path) -> tuple[Path, list[dict[str, Any]]]:
    """An exported dataset: its folder and its questions."""
    folder = Path(folder)
    data = json.loads((folder / "questions.json").read_text())
    if data.get("format") != FORMAT:
        raise ValueError(f"{folder} is not a perception export ({FORMAT})")
    return folder, data["questions"]
