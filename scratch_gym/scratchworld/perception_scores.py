"""Answers to ScratchWorld's Visual Perception benchmark
(:mod:`scratch_gym.scratchworld.perception`), scored exactly as ScratchWorld's own runner and
results script do.

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

from scratch_gym.scratchworld.checkout import RESULTS_SCRIPT, RUNNER_SCRIPT, checkout_file
from scratch_gym.scratchworld.perception import (
    BINARY,
    PerceptionItem,
    ScratchWorldPerceptionError,
    load_items,
)

RESULT_FILE = "result.json"


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
    :func:`~scratch_gym.scratchworld.perception.is_correct`."""
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
