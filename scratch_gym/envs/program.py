"""ScratchWorld-Program-v0: NL2Scratch-style program writing in the real editor (see
:class:`ProgramEnv`)."""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gymnasium import spaces

from scratch_gym.editor.browser import BrowserSession
from scratch_gym.editor.page import BridgeError, EditorPage, PageDeadError
from scratch_gym.editor.page_env import PageEnv
from scratch_gym.envs.validation import ProgramValidator
from scratch_gym.nl2scratch.episodes import (
    ProgramEpisode,
    as_lines,
    as_text,
    names_by_name,
    program_context,
    read_corpus,
    task_episode,
)
from scratch_gym.nl2scratch.generation import get_generation_protocol
from scratch_gym.nl2scratch.protocols import PROTOCOLS, get_protocol
from scratch_gym.program import ScratchblocksError, parse_scripts
from scratch_gym.program.projects import project_json, with_project_json
from scratch_gym.spaces import UnicodeText
from scratch_gym.task_selection import select_from
from scratch_gym.tasks import Task, list_tasks, load_task
from scratch_gym.tasks.registry import LISTING

MAX_PROGRAM_CHARS = 100_000


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
    - ``tasks``: the tasks an episode without a corpus or ``nl`` draws from, among the shipped
      tasks with a golden solution (the one task vocabulary: docs/tasks-and-rewards.md,
      "Selecting tasks"); default: all of them. Checked when the env is made (ValueError).
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
        tasks: str | Sequence[str] | None = None,
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
        self.task_selection = tasks
        # checked at make; all of them (None) is read at the first draw
        self._selected_ids = writable_task_ids(tasks) if tasks is not None else None
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
        self.validator: ProgramValidator | None = None
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
        self.validator = ProgramValidator(episode, self.sac_protocol, self.dialect)
        info.update(self.validator.start(self.page))
        return self._obs(), info

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        self.check_reset(begun=self.episode is not None)
        t0 = time.perf_counter()
        self._attempts_left -= 1
        info: dict[str, Any] = {
            "attempts_left": self._attempts_left,
            "protocol": self.protocol.name,
        }
        try:
            program = self._program_text(action)
            self._load(program)
        except PageDeadError as exc:
            return self.dead_page_step(exc, t0)
        except (ScratchblocksError, ValueError) as exc:
            self._last_error = str(exc)
            info.update(last_error=self._last_error, parsed=False)
            truncated = self._attempts_left <= 0
            if truncated and isinstance(action, (str, list, tuple)):  # the program that counts
                info.update(self.program_scores(as_text(action)))
            info["step_time_ms"] = (time.perf_counter() - t0) * 1000
            return self._obs(), 0.0, False, truncated, info
        self._last_error = ""
        try:
            assert self.validator is not None
            reward, terminated, scored = self.validator.step(self.page, program)
        except PageDeadError as exc:
            return self.dead_page_step(exc, t0)
        info.update(scored)
        info.update(parsed=True, last_error="", step_time_ms=(time.perf_counter() - t0) * 1000)
        return self._obs(), reward, terminated, False, info

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
        ids = self._selected_ids if self._selected_ids is not None else writable_task_ids(None)
        if not ids:
            raise ValueError("no task with a golden solution to write a program for")
        return load_task(ids[int(self.np_random.integers(len(ids)))])

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
        declared_vars = {**names_by_name(stage, "variables"), **names_by_name(target, "variables")}
        declared_lists = {**names_by_name(stage, "lists"), **names_by_name(target, "lists")}
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
        assert self.validator is not None
        return self.validator.scores(program)

    def _obs(self) -> dict[str, Any]:
        assert self.episode is not None
        return {
            "description": self.episode.description,
            "target": self.episode.target,
            "context": json.dumps(
                program_context(project_json(self.episode.project)), ensure_ascii=False
            ),
            "last_error": self._last_error,
            "attempts_left": max(self._attempts_left, 0),
        }


def writable_task_ids(tasks: str | Sequence[str] | None) -> list[str]:
    """The ids of the shipped tasks with a golden solution that ``tasks`` selects (the one task
    vocabulary, over those tasks and their categories); a TaskSelectionError otherwise."""
    writable = [t for t in list_tasks() if t.golden is not None]
    return [t.id for t in select_from(tasks, writable, argument="tasks", listing=LISTING)]
