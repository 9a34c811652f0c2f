"""ScratchWorld's own evaluation scripts, real time against virtual time (the ``--scratchworld`` part
of ``evaluation_speed.py``; see its docstring)."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from tqdm import tqdm

from scratch_gym.cli.output import print_json_last, table
from scratch_gym.editor.page import EditorPage
from scratch_gym.scratchworld import ScratchWorldCheckout
from scratch_gym.tasks import Evaluator
from scratch_gym.tasks.projects import load_project
from scratch_gym.tasks.schema import ProjectRef, Task

PROJECTS = ("golden", "start")


def score(page: EditorPage, task: Task, project: Path) -> dict[str, Any]:
    """One evaluation: its verdict, each case's verdict, wall and virtual seconds."""
    started = time.perf_counter()
    result = Evaluator(page, task).evaluate(load_project(ProjectRef(project)))
    return {
        "success": result.success,
        "cases": [[t.name, t.passed] for t in result.tests],
        "messages": [t.message for t in result.tests if not t.passed],
        "wall_s": round(time.perf_counter() - started, 3),
        "virtual_s": round(result.virtual_s, 3),
    }


def run_pass(root: Path, names: list[str], mode: str) -> dict[str, Any]:
    """Score every task's golden and starting project in ``mode`` ("real" or "virtual")."""
    checkout = ScratchWorldCheckout(root, time=mode)
    out: dict[str, Any] = {}
    page = EditorPage().open()
    page.settle(stop_vm=True)
    try:
        for name in tqdm(names, desc=f"{mode} time", unit="task"):
            task = checkout.load(name)
            golden = checkout.golden_path(name)
            out[name] = {
                "golden": score(page, task, golden) if golden else None,
                "start": score(page, task, task.start.path),
            }
    finally:
        page.close()
    return out


def scratchworld_main(args: argparse.Namespace) -> int:
    checkout = ScratchWorldCheckout(args.scratchworld)
    names = [p.stem for p in checkout.task_files()]
    if args.only:
        unknown = sorted(set(args.only) - set(names))
        if unknown:
            raise SystemExit(f"no ScratchWorld task named {', '.join(unknown)} in the checkout")
        names = [n for n in names if n in args.only]
    if args.realtime_from:
        saved = json.loads(Path(args.realtime_from).read_text())
        missing = [n for n in names if n not in saved]
        if missing:
            raise SystemExit(f"{args.realtime_from} has no real-time results for {missing}")
        real = {n: saved[n] for n in names}
    else:
        real = run_pass(checkout.root, names, "real")
        if args.save_realtime:
            _save_realtime(Path(args.save_realtime), real)
    virtual = run_pass(checkout.root, names, "virtual")
    rows, identical, case_identical = [], 0, 0
    for n in names:
        same = all(
            (real[n][p] or {}).get("success") == (virtual[n][p] or {}).get("success")
            for p in PROJECTS
        )
        same_cases = all(
            (real[n][p] or {}).get("cases") == (virtual[n][p] or {}).get("cases") for p in PROJECTS
        )
        identical += same
        case_identical += same_cases
        rows.append(
            (
                n,
                _verdict(real[n]["golden"]),
                _verdict(virtual[n]["golden"]),
                _verdict(real[n]["start"]),
                _verdict(virtual[n]["start"]),
                "yes" if same else "NO",
                _wall(real[n]),
                _wall(virtual[n]),
            )
        )
    print(
        table(
            [
                "task",
                "golden real",
                "golden virt",
                "start real",
                "start virt",
                "same",
                "real s",
                "virt s",
            ],
            rows,
        )
    )
    real_wall = sum(_wall(real[n]) for n in names)
    virtual_wall = sum(_wall(virtual[n]) for n in names)
    figures = {
        "scratchworld_tasks": len(names),
        "verdicts_identical": identical,
        "case_verdicts_identical": case_identical,
        "speedup_vs_realtime": round(real_wall / virtual_wall, 2) if virtual_wall else None,
        "realtime_wall_s": round(real_wall, 1),
        "virtual_time_wall_s": round(virtual_wall, 1),
        "golden_pass": {
            m: _count(r, names, "golden", True) for m, r in (("real", real), ("virtual", virtual))
        },
        "start_fail": {
            m: _count(r, names, "start", False) for m, r in (("real", real), ("virtual", virtual))
        },
        "differing": [n for n, row in zip(names, rows, strict=True) if row[5] != "yes"],
        "golden_failures_virtual": [
            n for n in names if not (virtual[n]["golden"] or {}).get("success")
        ],
        "start_passes_virtual": [n for n in names if virtual[n]["start"]["success"]],
    }
    print(
        f"{identical}/{len(names)} tasks with identical verdicts; real time {real_wall:.0f} s, "
        f"virtual time {virtual_wall:.0f} s ({figures['speedup_vs_realtime']}x)"
    )
    print_json_last(figures)
    return 0


def _save_realtime(path: Path, real: dict[str, Any]) -> None:
    """Write the real-time results; tasks already in ``path`` and not rerun are kept, so a
    rerun of some tasks (``--only``) updates a saved full pass."""
    saved = json.loads(path.read_text()) if path.exists() else {}
    saved.update(real)
    path.write_text(json.dumps(saved, indent=1))


def _verdict(entry: dict[str, Any] | None) -> str:
    if entry is None:
        return "-"
    return "pass" if entry["success"] else "fail"


def _wall(entry: dict[str, Any]) -> float:
    return sum(entry[p]["wall_s"] for p in PROJECTS if entry[p])


def _count(results: dict[str, Any], names: list[str], project: str, success: bool) -> int:
    return sum(
        1 for n in names if results[n][project] and results[n][project]["success"] is success
    )
