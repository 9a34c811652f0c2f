"""ScratchWorld-Perception-v0: one question about one editor screenshot (see
:class:`PerceptionEnv`)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from PIL import Image

from scratch_gym.editor.browser import BrowserSession
from scratch_gym.editor.page import EditorPage
from scratch_gym.editor.page_env import PageEnv
from scratch_gym.envs.validation import AnswerValidator
from scratch_gym.observations.pixels import screen_space
from scratch_gym.perception.dataset import DEFAULT_SCREENS, DEFAULT_SEED, load, scene_questions
from scratch_gym.scratchworld.perception import PerceptionItem, load_items
from scratch_gym.spaces import UnicodeText

ANSWER_CHARS = 1000  # the longest answer
MAX_MALFORMED = 3  # malformed answers an episode takes before it is truncated


class PerceptionEnv(PageEnv):
    """One question about one editor screenshot; the action is the answer.

    ## Description

    Visual Perception QA: each episode shows one screenshot of the editor and asks one question
    about it (connection, existence or field value), with the ground truth read from the editor.

    ## Action Space

    The answer as text (``UnicodeText``, at most 1000 characters).

    ## Observation Space

    ``Dict(screenshot=Box(720, 1280, 3, uint8), question=Text)``.

    ## Rewards

    1 for a correct answer (case-insensitive yes/no; field values by equivalence: numbers as
    numbers, dropdown values normalised; see ``questions.field_equivalent``), else 0. With
    ``scratchworld``, ScratchWorld's own rules: yes/no stripped and case-insensitive, exact-match
    values stripped and case-sensitive (``scratchworld.perception.is_correct``).

    ## Starting State

    Live (default): ``reset`` renders a scene of the benchmark (``seed``, ``screens`` scenes) in
    the editor and asks one of its questions. With ``dataset`` (a folder written by
    ``scratch-gym perception export``) the screenshots and questions come from the export and no
    browser is started. With ``scratchworld`` (a ScratchWorld checkout) the questions are the 200
    items of its Visual Perception benchmark, each shown with its own screenshot (no browser).
    ``reset(options={"index": i})`` picks question ``i`` of the export (or of the items), the
    item with task id ``t`` with ``{"item": t}``, in live mode ``{"scene": s, "question": q}``;
    otherwise the episode's RNG picks. ``info`` names the question's ``id``, ``kind`` and
    ``subtype`` (for ScratchWorld's items: the task type and the tag).

    ## Episode End

    An answer terminates the episode (one answer per episode). A malformed one (not text, or
    longer than 1000 characters) is reported in ``info["last_action_error"]`` with reward 0 and
    the episode goes on; the third malformed one truncates it.

    ## Arguments

    - ``seed``, ``screens``: which scenes of the benchmark the live mode renders.
    - ``dataset``: an exported folder to read instead of rendering.
    - ``scratchworld``: a ScratchWorld checkout whose Visual Perception items to ask.
    - ``render_mode``: ``"rgb_array"``; ``browser``: a BrowserSession to share.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 1}

    def __init__(
        self,
        seed: int = DEFAULT_SEED,
        screens: int = DEFAULT_SCREENS,
        dataset: str | Path | None = None,
        scratchworld: str | Path | None = None,
        render_mode: str | None = None,
        browser: BrowserSession | None = None,
    ) -> None:
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        self.render_mode = render_mode
        self.benchmark_seed = int(seed)
        self.screens = int(screens)
        self._browser = browser
        self._page: EditorPage | None = None
        self._folder: Path | None = None
        self._questions: list[dict[str, Any]] = []
        self._items: dict[str, PerceptionItem] = {}
        if dataset is not None and scratchworld is not None:
            raise ValueError("give dataset or scratchworld, not both")
        if dataset is not None:
            self._folder, self._questions = load(dataset)
        if scratchworld is not None:
            items = load_items(scratchworld)
            self._items = {i.task_id: i for i in items}
            self._folder = items[0].screenshot.parent  # the checkout's screenshot folder
            self._questions = [_item_question(i) for i in items]
        self.observation_space = gym.spaces.Dict(
            {"screenshot": screen_space(), "question": UnicodeText()}
        )
        self.action_space = UnicodeText(ANSWER_CHARS)
        self._malformed = 0
        self._question: dict[str, Any] | None = None
        self.validator: AnswerValidator | None = None
        self._screenshot: np.ndarray | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        options = dict(options or {})
        if self._folder is not None:
            index = options.pop("index", None)
            item = options.pop("item", None)
            if item is not None:
                if index is not None or not self._items:
                    raise ValueError(
                        "reset option 'item' is for scratchworld items, without 'index'"
                    )
                if str(item) not in self._items:
                    raise ValueError(f"no ScratchWorld perception item {item!r}")
                index = list(self._items).index(str(item))
            if index is None:
                index = int(self.np_random.integers(len(self._questions)))
            q = self._questions[int(index)]
            with Image.open(self._folder / q["image"]) as img:
                self._screenshot = np.asarray(img.convert("RGB"))
        else:
            scene = options.pop("scene", None)
            if scene is None:
                scene = int(self.np_random.integers(self.screens))
            pick = options.pop("question", None)
            rendered = self.start_episode(
                lambda page: scene_questions(page, self.benchmark_seed, int(scene))
            )
            if not rendered.questions:
                raise RuntimeError(f"scene {scene} has no question")
            if pick is None:
                pick = int(self.np_random.integers(len(rendered.questions)))
            q = rendered.questions[int(pick)].to_dict()
            with Image.open(io.BytesIO(rendered.png)) as img:
                self._screenshot = np.asarray(img.convert("RGB"))
        if options:
            raise ValueError(f"unknown reset options {sorted(options)}")
        self._question = q
        self._malformed = 0
        item = self._items[q["task_id"]] if q.get("rule") else None  # by its own answer rules
        self.validator = AnswerValidator(q, item)
        info = {"id": q["id"], "kind": q["kind"], "subtype": q["subtype"]}
        info.update(self.validator.start(self._page))
        return self._obs(), info

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        self.check_reset(begun=self._question is not None)
        q = self._question
        about = {"id": q["id"], "kind": q["kind"], "subtype": q["subtype"]}
        if not isinstance(action, str) or len(action) > ANSWER_CHARS:
            self._malformed += 1
            got = f"{len(action)} characters" if isinstance(action, str) else type(action).__name__
            error = f"the answer must be text of at most {ANSWER_CHARS} characters, got {got}"
            info = {**about, "correct": False, "last_action_error": error}
            return self._obs(), 0.0, False, self._malformed >= MAX_MALFORMED, info
        assert self.validator is not None
        reward, terminated, scored = self.validator.step(self._page, action)
        return self._obs(), reward, terminated, False, {**about, **scored}

    def hidden_facts(self) -> dict[str, Any]:
        """For privileged agents: the question's ``answer`` (and the whole ``question``)."""
        if self._question is None:
            return {}
        return {"answer": self._question["answer"], "question": dict(self._question)}

    def render(self) -> np.ndarray | None:
        if self.render_mode != "rgb_array" or self._screenshot is None:
            return None
        return self._screenshot.copy()

    def _obs(self) -> dict[str, Any]:
        assert self._question is not None and self._screenshot is not None
        return {"screenshot": self._screenshot.copy(), "question": self._question["question"]}


def _item_question(item: PerceptionItem) -> dict[str, Any]:
    """A ScratchWorld item in the environment's question form (``kind``: its task type,
    ``subtype``: its tag, ``rule``: how its answers are judged)."""
    return {
        "id": item.id,
        "task_id": item.task_id,
        "kind": item.task_type,
        "subtype": item.tag,
        "rule": item.rule,
        "question": item.question(),
        "answer": item.ground_truth,
        "image": item.screenshot.name,
    }
