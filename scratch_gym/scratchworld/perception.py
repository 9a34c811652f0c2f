"""Import ScratchWorld's Visual Perception benchmark (200 screenshot questions, 15 tags): its items
and the answer rules of ScratchWorld's own runner (scoring answers files:
:mod:`scratch_gym.scratchworld.perception_scores`).

The item files (:mod:`scratch_gym.scratchworld.checkout` has the whole layout)::

    <root>/visual_perception_benchmark/tasks/<N>.json        task_id, instruction, screenshot,
                                                              task_type, tag, ground_truth (and
                                                              the authoring prompt, not read)
    <root>/visual_perception_benchmark/screenshots_final/<screenshot>   1280x720 PNG

Only the six fields above are read: the task files also hold the prompt and the reply that wrote
each question (answer included), which an agent must never see.

**Answer rules** (ScratchWorld's runner decides ``success``; its results script only counts it):

* ``exact_match_*`` tags are *field* answers: the reply and the ground truth, outer whitespace
  stripped, must be equal, case included (``Random position`` is not ``random position``, ``10.0``
  is not ``10``);
* every other tag (connection, existence, equivalence) is a *binary* answer: stripped, compared
  case-insensitively (``yes`` matches ``YES``; ``YES.`` does not);
* an empty reply (or none) is wrong.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scratch_gym.scratchworld.checkout import PERCEPTION_TASKS_DIR, SCREENSHOTS_DIR, locate

ID_PREFIX = "scratchworld-vp-"

BINARY = "binary"  # case-insensitive YES/NO
EXACT = "exact"  # case-sensitive value

# tag -> (task type, answer rule, the answer every item of the tag has; None: a value)
TAGS: dict[str, tuple[str, str, str | None]] = {
    "connection_yes": ("connection", BINARY, "YES"),
    "connection_no_easy": ("connection", BINARY, "NO"),
    "connection_no_hard": ("connection", BINARY, "NO"),
    "existence_yes_clear": ("existence", BINARY, "YES"),
    "existence_yes_occluded": ("existence", BINARY, "YES"),
    "existence_yes_unidentifiable": ("existence", BINARY, "YES"),
    "existence_no_absent": ("existence", BINARY, "NO"),
    "existence_no_confusable": ("existence", BINARY, "NO"),
    "existence_no_unidentifiable": ("existence", BINARY, "NO"),
    "equivalence_numeric_yes": ("field", BINARY, "YES"),
    "equivalence_numeric_no": ("field", BINARY, "NO"),
    "equivalence_dropdown_yes": ("field", BINARY, "YES"),
    "equivalence_dropdown_no": ("field", BINARY, "NO"),
    "exact_match_numeric": ("field", EXACT, None),
    "exact_match_dropdown": ("field", EXACT, None),
}
TASK_TYPES = ("connection", "existence", "field")
FIELDS = ("task_id", "instruction", "screenshot", "task_type", "tag", "ground_truth")

# What the question's wording assumes (ScratchWorld states it to its models; in our words).
CONVENTIONS = (
    "Only the blocks in the code area count, not those in the block palette on the left. "
    "Block names in brackets are placeholders: `set [variable] to` is any variable-setting block. "
    "`go to [destination]` is the block with a menu (e.g. go to random position), never go to x: "
    "y:. Operators are named by their symbols (+, -, *, <); the green flag icon is written "
    "`green flag`."
)
ANSWER_FORMAT = {
    BINARY: "Answer YES or NO.",
    EXACT: "Answer with the value exactly as shown (a number or text; case matters).",
}


class ScratchWorldPerceptionError(ValueError):
    """A missing or malformed ScratchWorld checkout, item or answers file (the message names
    the file and what is wrong)."""


@dataclass(frozen=True)
class PerceptionItem:
    """One question of ScratchWorld's Visual Perception benchmark (a task of the perception
    suite: ``category`` is its tag)."""

    task_id: str
    instruction: str
    screenshot: Path
    task_type: str
    tag: str
    ground_truth: str
    suite = "perception"

    @property
    def id(self) -> str:
        return f"{ID_PREFIX}{self.task_id}"

    @property
    def category(self) -> str:
        return self.tag

    @property
    def rule(self) -> str:
        return TAGS[self.tag][1]

    def question(self) -> str:
        """The text an agent is asked: the item's instruction, how to answer, the conventions."""
        return f"{self.instruction}\n{ANSWER_FORMAT[self.rule]}\nConventions: {CONVENTIONS}"

    def reset_options(self) -> dict[str, Any]:
        """``PerceptionEnv.reset(options=...)`` for this item."""
        return {"item": self.task_id}

    def is_correct(self, answer: str | None) -> bool:
        return is_correct(self.rule, self.ground_truth, answer)


def is_correct(rule: str, ground_truth: str, answer: str | None) -> bool:
    """ScratchWorld's verdict on ``answer``: empty is wrong; else, both stripped, case-insensitive
    equality (``binary``) or exact equality (``exact``)."""
    if not answer:
        return False
    given, truth = str(answer).strip(), str(ground_truth).strip()
    if rule == BINARY:
        return given.upper() == truth.upper()
    if rule == EXACT:
        return given == truth
    raise ValueError(f"unknown answer rule {rule!r} (allowed: {BINARY}, {EXACT})")


def benchmark_root(checkout: str | Path) -> Path:
    """The checkout's root, checked to hold the benchmark's task and screenshot folders."""
    missing = "{root} holds no Visual Perception benchmark: {folder}/ is missing"
    folders = dict.fromkeys((PERCEPTION_TASKS_DIR, SCREENSHOTS_DIR), missing)
    return locate(checkout, folders, ScratchWorldPerceptionError)


def item_files(root: Path) -> list[Path]:
    """The task files in ScratchWorld's order (numeric names by number)."""
    files = list((root / PERCEPTION_TASKS_DIR).glob("*.json"))
    return sorted(files, key=lambda p: (0, int(p.stem), "") if p.stem.isdigit() else (1, 0, p.stem))


def read_item(root: Path, path: Path) -> PerceptionItem:
    """One task file as an item (errors name the file and the field)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ScratchWorldPerceptionError(f"{path}: not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ScratchWorldPerceptionError(f"{path}: not a JSON object")
    for key in FIELDS:
        if not isinstance(data.get(key), str) or not data[key]:
            got = "missing" if key not in data else f"{data[key]!r:.40}"
            raise ScratchWorldPerceptionError(f"{path}: {key} must be a non-empty string ({got})")
    if data["task_id"] != path.stem:
        raise ScratchWorldPerceptionError(
            f"{path}: task_id {data['task_id']!r} is not the file's name (ScratchWorld's results "
            "script finds an item's type by that name)"
        )
    tag = data["tag"]
    if tag not in TAGS:
        raise ScratchWorldPerceptionError(
            f"{path}: unknown tag {tag!r} (allowed: {', '.join(TAGS)})"
        )
    task_type, rule, expected = TAGS[tag]
    if data["task_type"] != task_type:
        raise ScratchWorldPerceptionError(
            f"{path}: task_type {data['task_type']!r} does not go with tag {tag} ({task_type})"
        )
    truth = data["ground_truth"]
    if expected is not None and truth.strip().upper() != expected:
        raise ScratchWorldPerceptionError(
            f"{path}: ground_truth {truth!r} does not go with tag {tag} (its answer is {expected})"
        )
    shot = root / SCREENSHOTS_DIR / data["screenshot"]
    if Path(data["screenshot"]).name != data["screenshot"] or not shot.is_file():
        raise ScratchWorldPerceptionError(
            f"{path}: screenshot {data['screenshot']!r} is not a file in {root / SCREENSHOTS_DIR}"
        )
    return PerceptionItem(data["task_id"], data["instruction"], shot, task_type, tag, truth)


def load_items(checkout: str | Path) -> list[PerceptionItem]:
    """Every item of the checkout's benchmark, in ScratchWorld's order."""
    root = benchmark_root(checkout)
    files = item_files(root)
    if not files:
        raise ScratchWorldPerceptionError(
            f"{root / PERCEPTION_TASKS_DIR} holds no task file (*.json)"
        )
    return [read_item(root, p) for p in files]


def load_item(checkout: str | Path, task_id: str) -> PerceptionItem:
    """One item by its task id (``17``) or suite id (``scratchworld-vp-17``)."""
    root = benchmark_root(checkout)
    name = str(task_id).removeprefix(ID_PREFIX)
    path = root / PERCEPTION_TASKS_DIR / f"{name}.json"
    if Path(name).name != name or not path.is_file():
        raise KeyError(f"no Visual Perception item {task_id!r} in {root / PERCEPTION_TASKS_DIR}")
    return read_item(root, path)
