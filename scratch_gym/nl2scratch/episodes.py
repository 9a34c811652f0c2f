"""NL2Scratch program-writing episodes outside the env: what an episode asks for
(:class:`ProgramEpisode`), the corpus and task readers, and a program's scores
(:func:`score_program`), shared by :class:`~scratch_gym.envs.program.ProgramEnv`, the items and
the suite."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scratch_gym.nl2scratch.inputs import Example
from scratch_gym.nl2scratch.protocols import ScoringProtocol
from scratch_gym.nl2scratch.scoring import score_prediction
from scratch_gym.program import render_scripts
from scratch_gym.program.projects import empty_project, project_json
from scratch_gym.tasks import Task
from scratch_gym.tasks.projects import load_project


@dataclass
class ProgramEpisode:
    """What one episode asks for and how it is scored."""

    description: str
    reference: list[str] | None = None
    project: dict[str, Any] | bytes = field(default_factory=empty_project)
    target: str = "Sprite1"
    task: Task | None = None
    key: str = ""


def score_program(
    program: str, description: str, reference: list[str] | None, protocol: ScoringProtocol
) -> dict[str, Any]:
    """One program's scores as the environment and the ``eval`` judge both give them: EM, F1,
    PS, SAC_nl (with its slot scores) and, with a reference, SAC_ref, after the protocol's
    post-processing; with the protocol's name and switches."""
    example = Example("", description, list(reference or []))
    s = score_prediction(program, example, protocol, check_parse=True)
    out: dict[str, Any] = {
        "sac_protocol": protocol.name,
        "postprocessed": protocol.postprocess,
        "sac_nl": s.sac_nl,
        "sac_nl_slots": {k: v for k, v in s.sac_nl_slots.items() if v is not None},
        "ps": s.ps,
    }
    if reference is not None:
        out.update(em=s.em, f1=s.f1, sac_ref=s.sac_ref)
    return out


def as_text(action: Any) -> str:
    return action if isinstance(action, str) else "\n".join(str(x) for x in action)


def as_lines(program: Any) -> list[str]:
    """A program given as one text or as a list of lines, as its lines."""
    if isinstance(program, str):
        return program.splitlines()
    return [str(line) for line in program]


def names_by_name(target: dict[str, Any], key: str) -> dict[str, str]:
    return {value[0]: var_id for var_id, value in target.get(key, {}).items()}


def program_context(project: dict[str, Any]) -> dict[str, Any]:
    """Names the program may refer to."""
    out: dict[str, Any] = {"sprites": {}, "stage": {}}
    for target in project["targets"]:
        entry = {
            "costumes": [c["name"] for c in target.get("costumes", [])],
            "sounds": [s["name"] for s in target.get("sounds", [])],
            "variables": [v[0] for v in target.get("variables", {}).values()],
            "lists": [v[0] for v in target.get("lists", {}).values()],
        }
        if target.get("isStage"):
            entry["broadcasts"] = list(target.get("broadcasts", {}).values())
            out["stage"] = entry
        else:
            out["sprites"][target["name"]] = entry
    return out


def read_corpus(path: str | Path) -> list[dict[str, Any]]:
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"corpus file not found: {path}")
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{number}: not valid JSON ({exc})") from exc
        if not isinstance(row, dict) or "nl" not in row:
            raise ValueError(
                f"{path}:{number}: each line needs an object with 'nl' (and 'pseudocode')"
            )
        rows.append(row)
    if not rows:
        raise ValueError(f"{path}: the corpus holds no example")
    return rows


def task_episode(task: Task) -> ProgramEpisode:
    """A program-writing episode from a task: its golden scripts for the sprite they change most."""
    if task.start is None or task.golden is None:
        raise ValueError(
            f"task {task.id} has no starting and golden project to write a program for"
        )
    start_data = load_project(task.start)
    start = project_json(start_data)
    golden = project_json(load_project(task.golden))
    start_targets = {t["name"]: t for t in start["targets"]}
    best, best_gain = None, -1
    for target in golden["targets"]:
        before = len(start_targets.get(target["name"], {}).get("blocks", {}))
        gain = len(target.get("blocks", {})) - before
        if gain > best_gain:
            best, best_gain = target, gain
    assert best is not None
    reference = render_scripts(best.get("blocks", {})).splitlines()
    return ProgramEpisode(
        description=task.instruction,
        reference=reference,
        project=start_data,
        target=best["name"],
        task=task,
        key=task.id,
    )
