"""``scratch-gym perception``: export the Visual Perception QA benchmark, or score answers to it.

    scratch-gym perception export --out DIR [--seed 0] [--screens 120]
    scratch-gym perception eval --dataset DIR --predictions answers.jsonl
    scratch-gym perception answers --scratchworld PATH --results R.jsonl --answers DIR
    scratch-gym perception score --scratchworld PATH --answers DIR [--check]

Predictions are JSON lines ``{"id": ..., "answer": ...}``; a question without one counts as wrong.
``answers`` writes the replies of an ``eval --suite perception --scratchworld`` run as
ScratchWorld's answers folder (``DIR/<task_id>/result.json``); ``score`` re-judges such a folder
by ScratchWorld's rules and prints its two tables, and with ``--check`` also runs the checkout's
own results script on it and says whether every count is the same.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from scratch_gym.cli.output import os_error_message, print_error, print_json_last
from scratch_gym.records.text import table


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("perception", help="export or score the Visual Perception QA benchmark")
    p.add_argument("action", choices=["export", "eval", "answers", "score"])
    p.add_argument("--out", type=Path, help="export: folder for images/ and questions.json")
    p.add_argument("--seed", type=int, default=None, help="export: benchmark seed (default 0)")
    p.add_argument("--screens", type=int, default=None, help="export: scenes (default 120)")
    p.add_argument("--dataset", type=Path, help="eval: an exported folder")
    p.add_argument("--predictions", type=Path, help="eval: JSONL of {id, answer}")
    p.add_argument(
        "--scratchworld",
        type=Path,
        metavar="PATH",
        help="answers, score: a ScratchWorld checkout (its Visual Perception benchmark)",
    )
    p.add_argument(
        "--answers",
        type=Path,
        metavar="DIR",
        help="answers: the folder to write; score: ScratchWorld's answers folder to score",
    )
    p.add_argument(
        "--results",
        type=Path,
        metavar="JSONL",
        help="answers: results of eval --suite perception --scratchworld",
    )
    p.add_argument("--agent", default=None, help="answers: the agent whose replies (if several)")
    p.add_argument(
        "--check",
        action="store_true",
        help="score: also run the checkout's results_visual_perception_benchmark.py and compare",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object last")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        actions = {"export": _export, "eval": _eval, "answers": _answers, "score": _score}
        summary = actions[args.action](args)
    except OSError as exc:
        return print_error(os_error_message(exc))
    except (ValueError, KeyError) as exc:
        return print_error(str(exc).strip("'\""))
    if args.json:
        print_json_last(summary)
    return 0


def _export(args: argparse.Namespace) -> dict:
    from scratch_gym.editor.page import EditorPage
    from scratch_gym.perception.dataset import DEFAULT_SCREENS, DEFAULT_SEED, export, generate

    if args.out is None:
        raise ValueError("perception export needs --out DIR (the folder to write)")
    seed = DEFAULT_SEED if args.seed is None else args.seed
    screens = DEFAULT_SCREENS if args.screens is None else args.screens
    page = EditorPage().open()
    try:
        rendered = []
        for r in generate(page, seed, screens):
            rendered.append(r)
            print(f"scene {r.scene.index + 1}/{screens}: {len(r.questions)} questions", flush=True)
    finally:
        page.close()
    data = export(rendered, args.out, seed)
    counts = Counter(f"{q['kind']}/{q['subtype']}/{q['answer'] if q['kind'] != 'field' else '*'}"
                     for q in data["questions"])  # fmt: skip
    print(table(["kind/subtype/answer", "questions"], sorted(counts.items())))
    return {"out": str(args.out), "seed": seed, "screens": screens,
            "questions": len(data["questions"]), "by_kind": dict(counts)}  # fmt: skip


def _eval(args: argparse.Namespace) -> dict:
    from scratch_gym.perception.dataset import load
    from scratch_gym.perception.questions import is_correct

    if args.dataset is None or args.predictions is None:
        raise ValueError(
            "perception eval needs --dataset DIR and --predictions JSONL (an exported folder and "
            "{id, answer} lines)"
        )
    _, questions = load(args.dataset)
    answers = {}
    for line in args.predictions.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            answers[str(row["id"])] = str(row.get("answer", ""))
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for q in questions:
        ok = q["id"] in answers and is_correct(q, answers[q["id"]])
        for key in ("all", q["kind"]):
            total[key] += 1
            right[key] += ok
    keys = ["all", *sorted(k for k in total if k != "all")]
    rows = [(k, total[k], right[k], right[k] / max(total[k], 1)) for k in keys]
    print(table(["kind", "questions", "correct", "accuracy"], rows))
    return {"accuracy": right["all"] / max(total["all"], 1),
            "by_kind": {k: right[k] / total[k] for k in total if k != "all"},
            "questions": total["all"], "answered": sum(q["id"] in answers for q in questions)}  # fmt: skip


def _need(args: argparse.Namespace, *names: str) -> None:
    missing = [f"--{n}" for n in names if getattr(args, n) is None]
    if missing:
        raise ValueError(f"perception {args.action} needs {' and '.join(missing)}")


def _answers(args: argparse.Namespace) -> dict:
    """ScratchWorld's answers folder from the records of an eval run on its items (episodes lost
    to an error are left out, as ScratchWorld's runner leaves out a failed model call)."""
    from scratch_gym.records.status import is_counted
    from scratch_gym.runner.results import ResultsFile
    from scratch_gym.scratchworld.perception import ID_PREFIX, load_items
    from scratch_gym.scratchworld.perception_scores import write_answers
    from scratch_gym.suites.perception import SCRATCHWORLD

    _need(args, "scratchworld", "results", "answers")
    if args.answers.is_dir() and any(args.answers.iterdir()):
        raise ValueError(f"{args.answers} is not empty: give a new folder for the answers")
    items = load_items(args.scratchworld)
    records = [r for r in ResultsFile(args.results).records() if r.get("benchmark") == SCRATCHWORLD]
    agents = list(dict.fromkeys(str(r.get("agent")) for r in records))
    if args.agent is not None:
        records = [r for r in records if r.get("agent") == args.agent]
    elif len(agents) > 1:
        raise ValueError(f"{args.results} holds several agents ({', '.join(agents)}): give --agent")
    if not records:
        raise ValueError(f"{args.results} holds no episode on ScratchWorld's perception items")
    replies: dict[str, str | None] = {}
    for r in records:
        task_id = str(r["task"]).removeprefix(ID_PREFIX)
        if is_counted(r) and task_id not in replies:
            replies[task_id] = r.get("given")
    write_answers(items, replies, args.answers)
    print(f"answers: {args.answers} ({len(replies)} of {len(items)} items)")
    return {
        "answers": str(args.answers),
        "items": len(replies),
        "left_out": len(records) - len(replies),
    }


def _score(args: argparse.Namespace) -> dict:
    from scratch_gym.scratchworld.perception import load_items
    from scratch_gym.scratchworld.perception_scores import compare_with_their_scorer, score_answers

    _need(args, "scratchworld", "answers")
    scores = score_answers(args.answers, load_items(args.scratchworld))
    print(scores.markdown())
    out = {**scores.figures(), "tags": len(scores.by_tag)}
    if scores.stored_disagreements:
        print(
            f"note: {scores.stored_disagreements} answers' stored success differs from "
            "ScratchWorld's rules (the tables re-judge every reply)"
        )
    if args.check:
        compared = compare_with_their_scorer(args.scratchworld, args.answers)
        verdict = (
            "equal" if compared["equal"] else "DIFFERENT: " + "; ".join(compared["differences"])
        )
        print(f"ScratchWorld's results script: {verdict}")
        out["score_equal"] = compared["equal"]
    return out
