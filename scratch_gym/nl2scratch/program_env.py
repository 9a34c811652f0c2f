"""ScratchWorld-Program-v0: NL2Scratch-style program writing in the real editor (see
:class:`ProgramEnv`)."""

from __future__ import annotations

import copy
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gymnasium import spaces

from scratch_gym.editor.browser import BrowserSession
from scratch_gym.editor.page import BridgeError, EditorPage, PageDeadError
from scratch_gym.editor.page_env import PageEnv
from scratch_gym.nl2scratch.generation import get_generation_protocol
from scratch_gym.nl2scratch.inputs import Example
from scratch_gym.nl2scratch.protocols import PROTOCOLS, ScoringProtocol, get_protocol
from scratch_gym.nl2scratch.scoring import score_prediction
from scratch_gym.program import ScratchblocksError, parse_scripts, render_scripts
from scratch_gym.program.projects import empty_project, project_json, with_project_json
from scratch_gym.spaces import UnicodeText
from scratch_gym.tasks import Evaluator, Task, list_tasks, load_task
from scratch_gym.tasks.projects import load_project

MAX_PROGRAM_CHARS = 100_000


@dataclass
class ProgramEpisode:
    """What one episode asks for and how it is scored."""

    description: str
    reference: list[str] | None = None
    project: dict[str, Any] | bytes = field(default_factory=empty_project)
    target: str = "Sprite1"
    task: Task | None = None
    key: str = ""


class ProgramEnv(PageEnv):
    """Write a Scratch program (scratchblocks text) from a description.

    ## Description

    The agent reads a description and writes a whole program in scratchblocks text. The program
    is parsed by the program model, loaded into the real editor (into the target sprite of the
    starting project) and scored: SAC_nl against the description, SAC_ref against the reference
    program when there is one, and the task's unit tests when it has them.

    ## Action Space

    The program as text (``UnicodeText``): standard scratchblocks or the NL2Scratch dialect.

    ## Observation Space

    ``Dict`` of text: ``description``, ``target`` (the sprite the program is for), ``context``
    (sprites, costumes, backdrops, variables, lists and broadcasts of the project, as JSON),
    ``last_error`` (the parse or load error, with line and column) and ``attempts_left``.

    ## Rewards

    The task's PSR when it has tests, else SAC_ref when there is a reference, else SAC_nl. The
    program is loaded as written and scored by :func:`score_program` under ``sac_protocol``
    (``paper``: post-processed as the published scorer does, as the ``eval`` judge scores it);
    ``info`` holds ``em``, ``f1``, ``ps``, ``sac_nl`` and ``sac_ref`` (with a reference), the
    scoring protocol (``sac_protocol``, ``postprocessed``) and the generation ``protocol``.

    ## Starting State

    The first that applies: ``reset(options={"nl": ..., "reference": ...})``; a JSONL corpus of
    ``{key, nl, pseudocode}`` (``corpus=``; an example drawn with the reset seed, or
    ``options={"index": i}``); otherwise a task of the shipped suite (its instruction as the
    description, its golden scripts for the target sprite as the reference, its tests), drawn
    with the reset seed or named by ``options={"task": id}``.

    ## Episode End

    Terminates after the first program that parses and loads. A program that does not parse
    comes back with the error's line and column and the episode goes on; it is truncated when
    the ``attempts`` are used up (then ``info`` also holds the last program's scores).

    ## Arguments

    - ``corpus``: a JSONL path of examples.
    - ``protocol``: the generation protocol (:mod:`~scratch_gym.nl2scratch.generation`):
      ``"retry"`` (default, 3 attempts) or ``"paper"`` (1 attempt); recorded in ``info``.
    - ``attempts``: programs an episode may submit (default: the protocol's).
    - ``dialect``: ``"nl2scratch"`` or ``"standard"``, how ``(name)`` is read when no variable of
      that name exists.
    - ``sac_protocol``: ``"paper"`` (default: SAC as the published NL2Scratch scorer computes
      it) or ``"robust"``.
    - ``render_mode``: ``"rgb_array"``; ``browser``: a BrowserSession to share.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 1}

    def __init__(
        self,
        corpus: str | Path | None = None,
        attempts: int | None = None,
        dialect: str = "nl2scratch",
        render_mode: str | None = None,
        browser: BrowserSession | None = None,
        sac_protocol: str = "paper",
        protocol: str | None = None,
    ) -> None:
        self.protocol = get_generation_protocol(protocol)
        attempts = self.protocol.attempts if attempts is None else attempts
        if attempts < 1:
            raise ValueError(f"attempts must be >= 1, got {attempts}")
        if dialect not in ("nl2scratch", "standard"):
            raise ValueError(f"dialect must be 'nl2scratch' or 'standard', got {dialect!r}")
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        if sac_protocol not in PROTOCOLS:
            raise ValueError(f"sac_protocol must be one of {PROTOCOLS}, got {sac_protocol!r}")
        self.sac_protocol = get_protocol(sac_protocol)
        self.corpus = read_corpus(corpus) if corpus is not None else None
        self.attempts = attempts
        self.dialect = dialect
        self.render_mode = render_mode
        self.observation_space = spaces.Dict(
            {
                "description": UnicodeText(),
                "target": UnicodeText(200),
                "context": UnicodeText(),
                "last_error": UnicodeText(),
                "attempts_left": spaces.Discrete(attempts + 1),
            }
        )
        self.action_space = UnicodeText(MAX_PROGRAM_CHARS)
        self._browser = browser
        self._page: EditorPage | None = None
        self.episode: ProgramEpisode | None = None
        self._attempts_left = attempts
        self._last_error = ""

    # -- Gymnasium API ----------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        episode = self.episode = self._episode(dict(options or {}))

        def set_up(page: EditorPage) -> None:
            page.load_project(episode.project)
            page.settle()

        self.start_episode(set_up)
        self._attempts_left = self.attempts
        self._last_error = ""
        info = {
            "key": self.episode.key,
            "task": self.episode.task.id if self.episode.task else None,
            "protocol": self.protocol.name,
        }
        return self._obs(), info

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        self.check_reset()
        if self.episode is None:
            raise RuntimeError("call reset() before step()")
        t0 = time.perf_counter()
        self._attempts_left -= 1
        info: dict[str, Any] = {
            "attempts_left": self._attempts_left,
            "protocol": self.protocol.name,
        }
        try:
            program = self._program_text(action)
            loaded = self._load(program)
        except PageDeadError as exc:
            return self.dead_page_step(exc, t0)
        except (ScratchblocksError, ValueError) as exc:
            self._last_error = str(exc)
            info.update(last_error=self._last_error, parsed=False)
            truncated = self._attempts_left <= 0
            if truncated and isinstance(action, (str, list, tuple)):  # the program that counts
                info.update(self.program_scores(_as_text(action)))
            info["step_time_ms"] = (time.perf_counter() - t0) * 1000
            return self._obs(), 0.0, False, truncated, info
        self._last_error = ""
        try:
            info.update(self._score(program, loaded))
        except PageDeadError as exc:
            return self.dead_page_step(exc, t0)
        info.update(parsed=True, last_error="", step_time_ms=(time.perf_counter() - t0) * 1000)
        return self._obs(), float(info["score"]), True, False, info

    def hidden_facts(self) -> dict[str, Any]:
        """For privileged agents: the episode's ``reference`` program (lines), when it has one."""
        if self.episode is None:
            return {}
        return {"reference": self.episode.reference, "task": self.episode.task}

    # -- parts ------------------------------------------------------------------------------------
    def _episode(self, options: dict[str, Any]) -> ProgramEpisode:
        if "nl" in options:
            reference = options.pop("reference", None)
            episode = ProgramEpisode(
                description=str(options.pop("nl")),
                reference=as_lines(reference) if reference is not None else None,
                key=str(options.pop("key", "")),
            )
        elif self.corpus is not None and "task" not in options:
            index = options.pop("index", None)
            if index is None:
                index = int(self.np_random.integers(len(self.corpus)))
            if not 0 <= int(index) < len(self.corpus):
                raise ValueError(f"index {index} out of range 0-{len(self.corpus) - 1}")
            row = self.corpus[int(index)]
            episode = ProgramEpisode(
                description=row["nl"],
                reference=as_lines(row.get("pseudocode")),
                key=row.get("key", ""),
            )
        else:
            task_id = options.pop("task", None)
            task = load_task(task_id) if task_id else self._sample_task()
            episode = task_episode(task)
        if options:
            raise ValueError(
                f"unknown reset options {sorted(options)}; allowed: nl, reference, key, index, task"
            )
        return episode

    def _sample_task(self) -> Task:
        tasks = [t for t in list_tasks() if t.golden is not None]
        if not tasks:
            raise ValueError("no task with a golden solution to write a program for")
        return tasks[int(self.np_random.integers(len(tasks)))]

    @staticmethod
    def _program_text(action: Any) -> str:
        if isinstance(action, (list, tuple)) and all(isinstance(x, str) for x in action):
            action = "\n".join(action)
        if not isinstance(action, str):
            raise ValueError(
                f"the action must be the program as text (or a list of lines), got {type(action).__name__}"
            )
        if len(action) > MAX_PROGRAM_CHARS:
            raise ValueError(
                f"the program has {len(action)} characters; at most {MAX_PROGRAM_CHARS}"
            )
        if not action.strip():
            raise ValueError("the program is empty; write at least one script")
        return action

    def _load(self, program: str) -> dict[str, Any]:
        """Parse the program, put it into the target sprite and load the project into the editor."""
        assert self.episode is not None
        project = copy.deepcopy(project_json(self.episode.project))
        targets = {t["name"]: t for t in project["targets"]}
        stage = next(t for t in project["targets"] if t.get("isStage"))
        target = targets[self.episode.target]
        declared_vars = {**_names(stage, "variables"), **_names(target, "variables")}
        declared_lists = {**_names(stage, "lists"), **_names(target, "lists")}
        result = parse_scripts(
            program,
            dialect=self.dialect,
            target=target,
            stage=stage,
            variables=declared_vars,
            lists=declared_lists,
        )
        target["blocks"] = {}
        result.apply_to(target, stage)
        page = self.page
        try:
            page.load_project(with_project_json(self.episode.project, project))
        except BridgeError as exc:
            page.load_project(self.episode.project)
            raise ValueError(f"the program parsed but the editor refused it: {exc}") from exc
        page.settle()
        return project

    def program_scores(self, program: str) -> dict[str, Any]:
        """The episode's scores of ``program`` (:func:`score_program` under ``sac_protocol``)."""
        assert self.episode is not None
        return score_program(
            program, self.episode.description, self.episode.reference, self.sac_protocol
        )

    def _score(self, program: str, project: dict[str, Any]) -> dict[str, Any]:
        assert self.episode is not None
        out = self.program_scores(program)
        page = self.page
        vm_blocks = page.bridge.vm_blocks(self.episode.target)
        out["program_in_editor"] = render_scripts(vm_blocks, dialect=self.dialect)
        if self.episode.task is not None and self.episode.task.tests:
            result = Evaluator(page, self.episode.task).evaluate()
            out.update(result.to_info())
            out["score"] = result.psr
        elif "sac_ref" in out:
            out["score"] = out["sac_ref"]
        else:
            out["score"] = out["sac_nl"]
        return out

    def _obs(self) -> dict[str, Any]:
        assert self.episode is not None
        return {
            "description": self.episode.description,
            "target": self.episode.target,
            "context": json.dumps(_context(project_json(self.episode.project)), ensure_ascii=False),
            "last_error": self._last_error,
            "attempts_left": max(self._attempts_left, 0),
        }


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


def _as_text(action: Any) -> str:
    return action if isinstance(action, str) else "\n".join(str(x) for x in action)


def as_lines(program: Any) -> list[str]:
    """A program given as one text or as a list of lines, as its lines."""
    if isinstance(program, str):
        return program.splitlines()
    return [str(line) for line in program]


def _names(target: dict[str, Any], key: str) -> dict[str, str]:
    return {value[0]: var_id for var_id, value in target.get(key, {}).items()}


def _context(project: dict[str, Any]) -> dict[str, Any]:
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
