"""Programs through the real VM: batch projects, load them in an editor page, read blocks back.

Each program becomes one sprite (``P0``, ``P1``, ...) of a batch project, so that one VM load
checks many programs. The blocks come back as the VM serialises them (``vm.toJSON()``), which is
what :func:`scratch_gym.program.render_scripts` then renders.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any

from scratch_gym.program.matcher import ParseResult
from scratch_gym.program.projects import empty_project


@dataclass
class LoadResult:
    """A batch's outcome: the blocks of each sprite read back, or the VM's error."""

    ok: bool
    blocks: dict[str, dict[str, Any]]  # sprite name -> sb3 blocks
    error: str = ""


def batch_project(programs: dict[str, ParseResult]) -> dict[str, Any]:
    """A project with one sprite per program (sprite name -> parsed blocks)."""
    project = empty_project()
    stage, template = project["targets"]
    project["targets"] = [stage]
    for order, (name, parsed) in enumerate(programs.items(), start=1):
        sprite = copy.deepcopy(template)
        sprite.update(name=name, layerOrder=order, blocks={}, variables={}, lists={})
        parsed.apply_to(sprite, stage)
        project["targets"].append(sprite)
    if any(
        str(b.get("opcode", "")).startswith("pen_")
        for p in programs.values()
        for b in p.blocks.values()
    ):
        project["extensions"] = ["pen"]
    return project


def load_batches(page, projects: list[dict[str, Any]]) -> list[LoadResult]:
    """Load each project into the page's VM and read every sprite's blocks back."""
    raw = page.call("catalogue.roundtrip", {"projects": [json.dumps(p) for p in projects]})
    out = []
    for item in raw:
        if not item["ok"]:
            out.append(LoadResult(False, {}, item["error"]))
            continue
        back = json.loads(item["project"])
        blocks = {t["name"]: t.get("blocks", {}) for t in back["targets"] if not t["isStage"]}
        out.append(LoadResult(True, blocks))
    return out


def run_project(page, project: dict[str, Any] | bytes, steps: int) -> dict[str, Any]:
    """Load ``project``, click the green flag and step the VM ``steps`` times; the targets'
    state afterwards (x, y, direction, size, visible, costume, variables, clones)."""
    page.load_project(project)
    return page.call("catalogue.run", {"steps": steps})
