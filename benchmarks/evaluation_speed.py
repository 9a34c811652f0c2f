"""Evaluation speed: wall time of evaluating each task's golden project against the virtual time
its tests simulate (30 frames per virtual second).

Each evaluation is fresh (no cache): fixing the project, loading a copy per test, running the
tests. Speedup = virtual seconds / wall seconds (median over repeats); real time would be 1x.
Prints a table; the last line is one JSON object with ``speedup_vs_realtime_median`` and ``tasks``.

    python benchmarks/evaluation_speed.py [--repeats 3] [--category compute]

With ``--scratchworld PATH`` it scores every task of a ScratchWorld checkout with the checkout's own
evaluation scripts instead: each task's golden project and starting project, once in real time (as
the original service runs them) and once in virtual time, and compares the verdicts. The last line
is one JSON object with ``scratchworld_tasks``, ``verdicts_identical`` (tasks whose golden and
starting verdicts agree in both modes), ``speedup_vs_realtime`` (real-time wall / virtual-time wall
over all tasks), golden passes and starting failures per mode. The real-time pass takes about an
hour; ``--save-realtime FILE`` keeps its results (a run with ``--only`` updates those tasks in an
existing FILE), ``--realtime-from FILE`` reuses them.

    python benchmarks/evaluation_speed.py --scratchworld /path/to/ScratchWorld \
        [--save-realtime real.json | --realtime-from real.json] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import statistics
import time

from scratch_gym.cli.output import print_json_last, table
from scratch_gym.editor.page import EditorPage
from scratch_gym.tasks import Evaluator, list_tasks
from scratch_gym.tasks.projects import load_project


def measure(page: EditorPage, task, repeats: int) -> dict:
    project = load_project(task.golden)
    walls, virtual, tests = [], 0.0, 0
    for _ in range(repeats):
        evaluator = Evaluator(page, task)
        started = time.perf_counter()
        result = evaluator.evaluate(project)
        walls.append(time.perf_counter() - started)
        virtual, tests = result.virtual_s, len(result.tests)
        if not result.success:
            raise SystemExit(f"{task.id}: the golden project failed: {result.to_info()}")
    wall = statistics.median(walls)
    return {
        "id": task.id,
        "category": task.category,
        "tests": tests,
        "wall_s": round(wall, 4),
        "virtual_s": round(virtual, 3),
        "speedup": round(virtual / wall, 2),
        "wall_per_test_s": round(wall / max(tests, 1), 4),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--category")
    parser.add_argument("--scratchworld", metavar="PATH", help="a ScratchWorld checkout to score")
    parser.add_argument("--save-realtime", metavar="FILE", help="write the real-time results")
    parser.add_argument("--realtime-from", metavar="FILE", help="reuse saved real-time results")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="only these ScratchWorld tasks")
    args = parser.parse_args(argv)
    if args.scratchworld:
        from scratchworld_speed import scratchworld_main

        return scratchworld_main(args)
    tasks = [t for t in list_tasks(args.category) if t.golden is not None]
    page = EditorPage().open()
    page.settle(stop_vm=True)  # the editor idle between actions, as the environment leaves it
    try:
        Evaluator(page, tasks[0]).evaluate(load_project(tasks[0].golden))  # warm up the page
        rows = [measure(page, task, args.repeats) for task in tasks]
    finally:
        page.close()
    print(
        table(
            ["task", "category", "tests", "wall s", "virtual s", "speedup x"],
            [
                (r["id"], r["category"], r["tests"], r["wall_s"], r["virtual_s"], r["speedup"])
                for r in rows
            ],
        )
    )
    speedups = [r["speedup"] for r in rows]
    total_wall = sum(r["wall_s"] for r in rows)
    total_virtual = sum(r["virtual_s"] for r in rows)
    print(
        f"median speedup {statistics.median(speedups):.1f}x; all tasks: {total_virtual:.1f} s virtual "
        f"in {total_wall:.2f} s wall"
    )
    print_json_last(
        {
            "speedup_vs_realtime_median": statistics.median(speedups),
            "speedup_vs_realtime_min": min(speedups),
            "total_wall_s": round(total_wall, 3),
            "total_virtual_s": round(total_virtual, 3),
            "repeats": args.repeats,
            "tasks": rows,
        }
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
