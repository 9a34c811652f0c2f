"""``scratch-gym perception``: export the Visual Perception QA benchmark, or score answers to it.

    scratch-gym perception export --out DIR [--seed 0] [--screens 120]
    scratch-gym perception eval --dataset DIR --predictions answers.jsonl

Predictions are JSON lines ``{"id": ..., "answer": ...}``; a question without one counts as wrong.
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
    p.add_argument("action", choices=["export", "eval"])
    p.add_argument("--out", type=Path, help="export: folder for images/ and questions.json")
    p.add_argument("--seed", type=int, default=None, help="export: benchmark seed (default 0)")
    p.add_argument("--screens", type=int, default=None, help="export: scenes (default 120)")
    p.add_argument("--dataset", type=Path, help="eval: an exported folder")
    p.add_argument("--predictions", type=Path, help="eval: JSONL of {id, answer}")
    p.add_argument("--json", action="store_true", help="print one JSON object last")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        summary = _export(args) if args.action == "export" else _eval(args)
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
