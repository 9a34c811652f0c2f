"""Import ScratchWorld's Visual Perception benchmark (200 screenshot questions, 15 tags) and score
answers to it exactly as ScratchWorld's own runner and results script do.

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

**Tables** (as ``results_visual_perception_benchmark.py`` prints them): correct / total / accuracy
per task type (``connection``, ``existence``, ``field``, read from the item) with an ``ALL`` row,
and per tag, each sorted by name, accuracy as ``12.34%``.

**Answers files** are ScratchWorld's result folders: ``<dir>/<task_id>/result.json`` holding
``task_id``, ``tag``, ``instruction``, ``ground_truth``, ``model_response`` and ``success``.
:func:`write_answers` writes one, :func:`score_answers` re-judges one (each reply against the
imported ground truth, not the file's ``success``), and :func:`compare_with_their_scorer` runs
the checkout's unmodified results script on it and checks that both give the same counts.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scratch_gym.scratchworld.checkout import (
    PERCEPTION_TASKS_DIR,
    RESULTS_SCRIPT,
    RUNNER_SCRIPT,
    SCREENSHOTS_DIR,
    checkout_file,
    locate,
)

ID_PREFIX = "scratchworld-vp-"
RESULT_FILE = "result.json"

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


# -- the checkout ---------------------------------------------------------------------------------
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


# -- answers files and their scores ---------------------------------------------------------------
Judge = Callable[[str, str, str], bool]  # (tag, ground truth, reply) -> success


def write_answers(
    items: Iterable[PerceptionItem],
    answers: Mapping[str, str | None],
    out: str | Path,
    judge: Judge | None = None,
) -> Path:
    """Write ScratchWorld's result folders for ``answers`` (task id -> reply; items without one
    are left out, as ScratchWorld's runner leaves out an item whose model call failed). Each
    ``success`` is ``judge(tag, ground_truth, reply)`` (e.g. :func:`their_judge`), by default
    :func:`is_correct`."""
    out = Path(out)
    for item in items:
        if item.task_id not in answers:
            continue
        reply = answers[item.task_id]
        folder = out / item.task_id
        folder.mkdir(parents=True, exist_ok=True)
        record = {
            "task_id": item.task_id,
            "tag": item.tag,
            "instruction": item.instruction,
            "ground_truth": item.ground_truth,
            "model_response": reply,
            "success": (
                judge(item.tag, item.ground_truth, reply) if judge else item.is_correct(reply)
            ),
        }
        (folder / RESULT_FILE).write_text(json.dumps(record, indent=2, ensure_ascii=False))
    return out


@dataclass
class Scores:
    """Correct and total answers per task type and per tag (ScratchWorld's two tables)."""

    by_type: dict[str, list[int]]
    by_tag: dict[str, list[int]]
    stored_disagreements: int = 0  # answers whose file's ``success`` differs from the re-judging

    def add(self, task_type: str, tag: str, correct: bool) -> None:
        for table, key in ((self.by_type, task_type), (self.by_tag, tag)):
            row = table.setdefault(key, [0, 0])
            row[0] += bool(correct)
            row[1] += 1

    @property
    def total(self) -> int:
        return sum(t for _, t in self.by_type.values())

    @property
    def correct(self) -> int:
        return sum(c for c, _ in self.by_type.values())

    def type_rows(self) -> list[tuple[str, int, int, str]]:
        """(task type, correct, total, accuracy) by name, then ``ALL``."""
        counts = [(k, *self.by_type[k]) for k in sorted(self.by_type)]
        counts.append(("ALL", self.correct, self.total))
        return [(k, c, t, accuracy_text(c, t)) for k, c, t in counts]

    def tag_rows(self) -> list[tuple[str, int, int, str]]:
        """(tag, correct, total, accuracy) by name."""
        return [(k, c, t, accuracy_text(c, t)) for k, (c, t) in sorted(self.by_tag.items())]

    def markdown(self) -> str:
        """The two tables in the layout of ScratchWorld's results script."""
        return "\n\n".join(
            [
                markdown_table(["Task Type", "Correct", "Total", "Accuracy"], self.type_rows()),
                markdown_table(["Tag", "Correct", "Total", "Accuracy"], self.tag_rows()),
            ]
        )

    def counts(self) -> dict[str, dict[str, tuple[int, int]]]:
        """``{"type": {name: (correct, total)}, "tag": {...}}`` (``ALL`` among the types)."""
        return {
            "type": {k: (c, t) for k, c, t, _ in self.type_rows()},
            "tag": {k: (c, t) for k, c, t, _ in self.tag_rows()},
        }

    def figures(self) -> dict[str, Any]:
        return {
            "answers": self.total,
            "correct": self.correct,
            "accuracy": self.correct / self.total if self.total else None,
            "by_type": {k: c / t for k, (c, t) in self.counts()["type"].items() if k != "ALL"},
            "by_tag": {k: c / t for k, (c, t) in self.counts()["tag"].items()},
            "stored_disagreements": self.stored_disagreements,
        }


def accuracy_text(correct: int, total: int) -> str:
    return "N/A" if total == 0 else f"{correct / total * 100:.2f}%"


def markdown_table(headers: list[str], rows: Iterable[Iterable[Any]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join(["---"] * len(headers)) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def read_answers(answers: str | Path) -> list[tuple[Path, dict[str, Any]]]:
    """Every ``<dir>/<sub>/result.json`` of an answers folder, in name order."""
    folder = Path(answers)
    if not folder.is_dir():
        raise ScratchWorldPerceptionError(f"{folder}: no such answers folder")
    out = []
    for sub in sorted(folder.iterdir()):
        path = sub / RESULT_FILE
        if not sub.is_dir() or not path.is_file():
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ScratchWorldPerceptionError(f"{path}: not valid JSON: {exc}") from None
        if not isinstance(data, dict):
            raise ScratchWorldPerceptionError(f"{path}: not a JSON object")
        out.append((path, data))
    return out


def score_answers(answers: str | Path, items: Iterable[PerceptionItem]) -> Scores:
    """Re-judge every reply of an answers folder against the imported items (their tag, type and
    ground truth), by ScratchWorld's answer rules. A reply to an item the benchmark lacks, or
    filed under another tag, is an error that names the file."""
    by_id = {i.task_id: i for i in items}
    scores = Scores({}, {})
    for path, data in read_answers(answers):
        task_id = str(data.get("task_id", ""))
        item = by_id.get(task_id)
        if item is None:
            raise ScratchWorldPerceptionError(
                f"{path}: task_id {task_id!r} is not an item of the benchmark"
            )
        if data.get("tag") != item.tag:
            raise ScratchWorldPerceptionError(
                f"{path}: tag {data.get('tag')!r} is not item {task_id}'s tag ({item.tag})"
            )
        reply = data.get("model_response")
        if reply is not None and not isinstance(reply, str):
            raise ScratchWorldPerceptionError(f"{path}: model_response must be text or null")
        correct = item.is_correct(reply)
        scores.stored_disagreements += bool(data.get("success", False)) != correct
        scores.add(item.task_type, item.tag, correct)
    return scores


_ROW = re.compile(r"^\|\s*(.+?)\s*\|\s*(\d+)\s*\|\s*(\d+)\s*\|\s*(\S+)\s*\|$")


def parse_their_tables(text: str) -> dict[str, dict[str, tuple[int, int]]]:
    """The two tables ScratchWorld's results script printed, as :meth:`Scores.counts`."""
    tables: list[dict[str, tuple[int, int]]] = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("| Task Type |") or line.startswith("| Tag |"):
            tables.append({})
            continue
        match = _ROW.match(line)
        if match and tables:
            tables[-1][match.group(1)] = (int(match.group(2)), int(match.group(3)))
    if len(tables) != 2:
        raise ScratchWorldPerceptionError(
            f"could not read the results script's two tables from its output:\n{text[-2000:]}"
        )
    return {"type": tables[0], "tag": tables[1]}


def run_their_scorer(
    checkout: str | Path, answers: str | Path, python: str = sys.executable, timeout_s: float = 300
) -> str:
    """The output of the checkout's own ``results_visual_perception_benchmark.py`` (unmodified,
    run by path with ``python``) on an answers folder."""
    script = checkout_file(checkout, RESULTS_SCRIPT, ScratchWorldPerceptionError)
    root = script.parent
    done = subprocess.run(
        [python, str(script), str(Path(answers).resolve())],
        capture_output=True,
        text=True,
        timeout=timeout_s,
        cwd=root,
        check=False,
    )
    if done.returncode != 0:
        raise ScratchWorldPerceptionError(
            f"{RESULTS_SCRIPT} exited with {done.returncode}: {done.stderr.strip()[-2000:]}"
        )
    return done.stdout


def compare_with_their_scorer(
    checkout: str | Path, answers: str | Path, python: str = sys.executable
) -> dict[str, Any]:
    """Score an answers folder with :func:`score_answers` and with ScratchWorld's results script;
    ``equal`` says whether every row (per type, ALL, per tag) has the same counts."""
    ours = score_answers(answers, load_items(checkout)).counts()
    theirs = parse_their_tables(run_their_scorer(checkout, answers, python))
    differences = [
        f"{table} {name}: ours {ours[table].get(name)}, theirs {theirs[table].get(name)}"
        for table in ("type", "tag")
        for name in sorted(set(ours[table]) | set(theirs[table]))
        if ours[table].get(name) != theirs[table].get(name)
    ]
    return {"equal": not differences, "differences": differences, "ours": ours, "theirs": theirs}


def their_judge(checkout: str | Path) -> Judge:
    """ScratchWorld's runner's own verdict, ``(tag, ground_truth, reply) -> success``: its two
    methods that decide it (the tag's answer type, then the comparison), read unmodified from
    ``run_visual_perception_benchmark.py`` and run as they are (without the rest of the runner,
    whose model client is not needed)."""
    path = checkout_file(checkout, RUNNER_SCRIPT, ScratchWorldPerceptionError)
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    wanted = {"_get_task_type_from_tag", "_validate_result"}
    found = [
        node
        for cls in tree.body
        if isinstance(cls, ast.ClassDef)
        for node in cls.body
        if isinstance(node, ast.FunctionDef) and node.name in wanted
    ]
    if {f.name for f in found} != wanted:
        raise ScratchWorldPerceptionError(
            f"{path}: could not find the runner's {' and '.join(sorted(wanted))} methods"
        )
    namespace: dict[str, Any] = {}
    module = ast.Module(body=list(found), type_ignores=[])
    exec(compile(module, str(path), "exec"), namespace)  # noqa: S102 - the checkout's own code
    type_of, validate = namespace["_get_task_type_from_tag"], namespace["_validate_result"]

    def judge(tag: str, ground_truth: str, reply: str) -> bool:
        return bool(validate(None, reply, ground_truth, type_of(None, tag)))

    return judge


def probe_answers(items: Iterable[PerceptionItem]) -> dict[str, str]:
    """A fixed, deterministic set of replies, one per item, some right and some wrong, that
    exercises every branch of the answer rules: the truth as it is, lower-cased, padded with
    spaces, with a final full stop, the other answer (or the value with a character more), and
    an empty reply, in turn by the item's number. For checking one scorer against another; it
    knows nothing of the screenshots."""
    out = {}
    for n, item in enumerate(items):
        truth = item.ground_truth
        wrong = ({"YES": "NO", "NO": "YES"}.get(truth.upper(), "NO") if item.rule == BINARY
                 else truth + "0")  # fmt: skip
        variants = (truth, truth.lower(), f"  {truth} \n", f"{truth}.", wrong, "")
        out[item.task_id] = variants[n % len(variants)]
    return out


def equality_check(
    checkout: str | Path, out: str | Path, python: str = sys.executable
) -> dict[str, Any]:
    """The drop-in figures of the import: every item answered by :func:`probe_answers`, filed in
    ScratchWorld's answers format with ScratchWorld's runner's own verdicts
    (:func:`their_judge`), scored by :func:`score_answers` and by ScratchWorld's results script:
    ``perception_items``, ``perception_tags``, ``perception_score_equal`` and the differences."""
    items = load_items(checkout)
    if Path(out).is_dir() and any(Path(out).iterdir()):
        raise ScratchWorldPerceptionError(f"{out} is not empty: give a new folder for the answers")
    write_answers(items, probe_answers(items), out, judge=their_judge(checkout))
    compared = compare_with_their_scorer(checkout, out, python)
    return {
        "perception_items": len(items),
        "perception_tags": len({i.tag for i in items}),
        "perception_score_equal": compared["equal"],
        "differences": compared["differences"],
        "answers": str(out),
    }
