"""``scratch-gym tasks``: list and filter tasks, run a task's adversarial check, evaluate a project,
scaffold a new task.

    scratch-gym tasks list [--category C] [--difficulty D] [--block OPCODE] [--scratchworld PATH]
    scratch-gym tasks check TASK_ID          # golden passes, start/negatives/removals fail one
    scratch-gym tasks evaluate TASK_ID [PROJECT]   # PROJECT: .sb3/.json/.toml (default: golden)
    scratch-gym tasks new TASK_ID --category C [--dir DIR]   # a task folder to fill in
    scratch-gym tasks export-scratchworld DIR [TASK_ID ...] [--category C] ...   # as their tasks
    scratch-gym tasks --stats [--category C]    # suite statistics from the task files
    scratch-gym tasks --stats --oracle-results R.jsonl ... [--markdown]   # oracles per category
    scratch-gym tasks --stats --scratchworld PATH [--category C]   # a ScratchWorld checkout's

``--tasks-dir DIR`` (repeatable) adds the user's own task folder(s) to the shipped suite, as
``$SCRATCH_GYM_TASKS`` does. With ``--json`` the last line is one JSON object.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from scratch_gym.cli.arguments import existing_dir, existing_file, task_project_file
from scratch_gym.cli.output import UsageError, print_error, print_json_last
from scratch_gym.cli.task_dirs import add_tasks_dir_argument, apply_tasks_dirs
from scratch_gym.progress import progress_bar
from scratch_gym.records.text import table


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tasks", help="list tasks, check a task adversarially, evaluate a project")
    p.add_argument("--stats", action="store_true", help="suite statistics from the task files")
    p.add_argument("--category", dest="stats_category", help="with --stats: one category only")
    p.add_argument("--json", dest="stats_json", action="store_true", help="with --stats: JSON last")
    p.add_argument(
        "--tasks-dir",
        dest="stats_tasks_dirs",
        action="append",
        metavar="DIR",
        help="with --stats: also read the tasks in DIR (repeatable)",
    )
    p.add_argument(
        "--oracle-results",
        nargs="+",
        type=existing_file,
        metavar="JSONL",
        help="with --stats: per category, the primitive and composite oracles' success and "
        "median steps from these eval results files (scratch-gym eval --agent oracle)",
    )
    p.add_argument("--markdown", action="store_true", help="with --oracle-results: Markdown")
    p.add_argument(
        "--scratchworld",
        dest="stats_scratchworld",
        type=existing_dir,
        metavar="PATH",
        help="with --stats: the statistics of this ScratchWorld checkout's tasks, as the paper "
        "gives them (tasks per category, blocks each golden modifies, opcodes)",
    )
    actions = p.add_subparsers(dest="tasks_command", metavar="ACTION")

    ls = actions.add_parser("list", help="list tasks (filtered)")
    ls.add_argument("--category", help="create, debug, extend, compute, ...")
    ls.add_argument("--difficulty", choices=["easy", "medium", "hard"])
    ls.add_argument("--block", help="only tasks tagged with this opcode")
    ls.add_argument(
        "--scratchworld",
        type=existing_dir,
        metavar="PATH",
        help="list an original ScratchWorld checkout",
    )

    check = actions.add_parser("check", help="adversarial check of tasks (one, several, --all)")
    check.add_argument("task_id", nargs="*", help="task ids (or --all)")
    check.add_argument(
        "--all",
        action="store_true",
        help="check every task (with --category: every task of it); a row per task, exit 1 "
        "when any fails",
    )
    check.add_argument("--category", default=None, help="with --all: only this category")
    check.add_argument(
        "--primitive",
        action="store_true",
        help="also run the primitive oracle in the real editor: it must solve the task within "
        "the step budget, which must be at least 1.25x its steps",
    )

    ev = actions.add_parser("evaluate", help="run a task's tests on a project file")
    ev.add_argument("task_id")
    ev.add_argument(
        "project",
        nargs="?",
        type=task_project_file,
        help=".sb3, .json or .toml (default: the golden)",
    )
    ev.add_argument(
        "--scratchworld", type=existing_dir, metavar="PATH", help="the task is from this checkout"
    )

    new = actions.add_parser("new", help="scaffold a new task folder to fill in")
    new.add_argument("task_id", help="lowercase letters, digits, '-' or '_'")
    new.add_argument("--category", required=True, help="create, debug, extend, compute, ...")
    new.add_argument(
        "--dir",
        default=None,
        help="the task folder to create it in (default: the first folder in "
        "$SCRATCH_GYM_TASKS, else ./tasks); the task goes to DIR/CATEGORY/TASK_ID",
    )

    export = actions.add_parser(
        "export-scratchworld",
        help="write tasks as a ScratchWorld checkout (task JSONs, projects, scripts) for their "
        "runner, scored by scratch-gym serve",
    )
    export.add_argument("dir", type=Path, help="the folder to write (absent or empty)")
    export.add_argument("task_id", nargs="*", help="task ids (default: every task selected)")
    export.add_argument("--category", help="create, debug, extend, compute, ...")
    export.add_argument("--difficulty", choices=["easy", "medium", "hard"])
    export.add_argument("--block", help="only tasks tagged with this opcode")
    export.add_argument(
        "--force", action="store_true", help="replace an earlier export in DIR (not other files)"
    )

    for q in (ls, check, ev, new, export):
        q.add_argument("--json", action="store_true", help="print one JSON object last")
    for q in (ls, check, ev, export):
        add_tasks_dir_argument(q)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.stats or args.tasks_command is None:
        apply_tasks_dirs(argparse.Namespace(tasks_dirs=args.stats_tasks_dirs))
        return _stats(args)
    actions = {"list": _list, "check": _check, "evaluate": _evaluate, "new": _new,
               "export-scratchworld": _export}  # fmt: skip
    return actions[args.tasks_command](args)


def check_category(category: str | None) -> None:
    """UsageError for a category no task has (allowed ones and a did-you-mean in the message)."""
    if category:
        from scratch_gym.runner.suite import checked_selection
        from scratch_gym.suites import TaskSuite

        try:
            tasks = checked_selection(TaskSuite(), [category])
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        if not any(t.category == category for t in tasks):
            raise UsageError(f"{category!r} is a task id, not a category")


def _stats(args: argparse.Namespace) -> int:
    if args.stats_scratchworld:
        if args.oracle_results:
            return print_error("give --scratchworld or --oracle-results with --stats, not both")
        return _checkout_stats(args)
    check_category(args.stats_category)
    if args.oracle_results:
        return _oracle_stats(args)
    from scratch_gym.tasks import list_tasks
    from scratch_gym.tasks.stats import suite_stats

    rows, summary = suite_stats(list_tasks(args.stats_category))
    return _print_stats(args, rows, summary)


def _checkout_stats(args: argparse.Namespace) -> int:
    from scratch_gym.scratchworld.tasks import scratchworld_tasks
    from scratch_gym.tasks.stats import checkout_stats

    try:
        tasks = scratchworld_tasks(args.stats_scratchworld)
    except (ValueError, OSError) as exc:
        return print_error(str(exc))
    categories = sorted({t.category for t in tasks})
    if args.stats_category:
        if args.stats_category not in categories:
            return print_error(
                f"no category {args.stats_category!r} in {args.stats_scratchworld} "
                f"({', '.join(categories) or 'it holds no tasks'})"
            )
        tasks = [t for t in tasks if t.category == args.stats_category]
    rows, summary = checkout_stats(tasks)
    return _print_stats(args, rows, summary)


def _print_stats(args: argparse.Namespace, rows: list, summary: dict[str, Any]) -> int:
    """The per-task table (no test count where tests are scripts) and the summary."""
    tests = "tests" in summary
    print(
        table(
            ["id", "category", *(["tests"] if tests else []), "blocks changed", "opcodes"],
            [
                (r.id, r.category, *([r.tests] if tests else []), r.blocks_changed, len(r.opcodes))
                for r in rows
            ],
        )
    )
    print()
    print(
        table(
            ["statistic", "value"],
            [(k, v) for k, v in summary.items() if k != "opcodes"],
        )
    )
    if args.stats_json:
        print_json_last(summary)
    return 0


def _oracle_stats(args: argparse.Namespace) -> int:
    from scratch_gym.runner.results import ResultsFile
    from scratch_gym.tasks.stats import oracle_markdown, oracle_rows, oracle_stats

    records = [r for path in args.oracle_results for r in ResultsFile(path).records()]
    if args.stats_category:
        records = [r for r in records if r.get("category") == args.stats_category]
    stats = oracle_stats(records)
    if not stats:
        return print_error(
            "no primitive or composite episodes in these results files (eval results of "
            "--mode primitive or composite)"
        )
    if args.markdown:
        print(oracle_markdown(stats))
    else:
        print(table(*oracle_rows(stats)))
        for mode, cats in stats.items():
            for task, why in sorted(cats["all"]["failures"].items()):
                print(f"{mode} oracle fails {task}: {why}")
    if args.stats_json:
        print_json_last(stats)
    return 0


def _selected(args: argparse.Namespace) -> list[Any]:
    """The tasks named by id (or every task), filtered by category, difficulty and block."""
    from scratch_gym.tasks import list_tasks, load_task

    check_category(args.category)
    tasks = [load_task(t) for t in args.task_id] if args.task_id else list_tasks(args.category)
    if args.category:
        tasks = [t for t in tasks if t.category == args.category]
    if args.difficulty:
        tasks = [t for t in tasks if t.tags.difficulty == args.difficulty]
    if args.block:
        tasks = [t for t in tasks if args.block in t.tags.blocks]
    return tasks


def _export(args: argparse.Namespace) -> int:
    from scratch_gym.scratchworld.export import ExportProblems, export_tasks

    tasks = _selected(args)
    if not tasks:
        raise UsageError("no task matches the selection: nothing to export")
    try:
        done = export_tasks(tasks, args.dir, force=args.force)
    except ExportProblems as exc:
        for task, why in sorted(exc.problems.items()):
            print(f"cannot export {task}: {why}")
        if args.json:
            print_json_last({"exported": 0, "problems": exc.problems})
        return print_error(f"{len(exc.problems)} task(s) cannot be exported; nothing written")
    out = args.dir.expanduser().resolve()
    print(table(["id", "category", "tests"], [(e.id, e.category, e.tests) for e in done]))
    print(f"exported {len(done)} tasks to {out}")
    print(f"serve them: scratch-gym serve --scratchworld {out}")
    print(f"their runner: task_runner.py --tasks_dir {out / 'tasks'} --task_list all_tasks.json")
    if args.json:
        print_json_last(
            {"dir": str(out), "exported": len(done), "tasks": [e.to_json() for e in done]}
        )
    return 0


def _list(args: argparse.Namespace) -> int:
    if args.scratchworld:
        from scratch_gym.scratchworld.tasks import ScratchWorldCheckout

        tasks = ScratchWorldCheckout(args.scratchworld).tasks(args.category)
    else:
        from scratch_gym.tasks import list_tasks

        check_category(args.category)
        tasks = list_tasks(args.category)
    if args.difficulty:
        tasks = [t for t in tasks if t.tags.difficulty == args.difficulty]
    if args.block:
        tasks = [t for t in tasks if args.block in t.tags.blocks]
    rows = [
        (t.id, t.category, t.tags.difficulty, len(t.tests) or "ext", t.step_budget) for t in tasks
    ]
    print(table(["id", "category", "difficulty", "tests", "steps"], rows))
    if args.json:
        print_json_last({"tasks": [_task_json(t) for t in tasks], "count": len(tasks)})
    return 0


def _task_json(task: Any) -> dict[str, Any]:
    return {
        "id": task.id,
        "category": task.category,
        "difficulty": task.tags.difficulty,
        "blocks": list(task.tags.blocks),
        "tests": task.test_names,
        "step_budget": task.step_budget,
    }


@contextmanager
def editor_page() -> Iterator[Any]:
    """A fresh editor page for one command, idle between evaluations."""
    from scratch_gym.editor.page import EditorPage

    page = EditorPage().open()
    try:
        page.settle(stop_vm=True)
        yield page
    finally:
        page.close()


def _check(args: argparse.Namespace) -> int:
    from scratch_gym.tasks import list_tasks, load_task

    if args.all == bool(args.task_id):
        raise UsageError("tasks check needs task ids, or --all (not both)")
    if args.category and not args.all:
        raise UsageError("tasks check: --category goes with --all (not with task ids)")
    check_category(args.category)
    tasks = list_tasks(args.category) if args.all else [load_task(t) for t in args.task_id]
    if len(tasks) == 1:
        return _check_one(tasks[0], args)
    return _check_many(tasks, args)


def _check_task(task: Any, page: Any, primitive: bool) -> tuple[list[str], dict[str, Any], Any]:
    """A task's problems, its JSON report and the check (adversarial, then the oracle)."""
    from scratch_gym.tasks.adversarial import check_task
    from scratch_gym.tasks.scaffold import unfinished

    todo = unfinished(task)
    if todo:
        return [f"not filled in yet: {item}" for item in todo], {"task": task.id, "ok": False,
                "unfinished": todo}, None  # fmt: skip
    report = check_task(page, task)
    problems = report.problems()
    payload = report.to_json()
    if primitive:
        from scratch_gym.runner.solvability import check_oracle

        oracle = check_oracle(task, "primitive")
        problems += oracle.problems()
        payload = {**payload, "primitive_oracle": oracle.to_json(), "ok": not problems}
        return problems, payload, (report, oracle)
    return problems, payload, (report, None)


def _check_one(task: Any, args: argparse.Namespace) -> int:
    from scratch_gym.tasks.scaffold import unfinished

    todo = unfinished(task)
    if todo:  # before opening an editor: nothing to run yet
        print(f"{task.id} is not filled in yet; still to do:")
        for item in todo:
            print(f"  - {item}")
        if args.json:
            print_json_last({"task": task.id, "ok": False, "unfinished": todo})
        return 1
    with editor_page() as page:
        problems, payload, (report, oracle) = _check_task(task, page, args.primitive)
    rows = []
    for c in report.checks:
        got = "neutral" if c.result is None else f"psr {c.result.psr:.2f}"
        rows.append(("ok" if c.ok else "FAIL", c.expect, got, c.label))
    print(table(["", "must", "got", "project"], rows))
    if oracle is not None:
        print(
            f"primitive oracle: {oracle.status} in {oracle.steps} steps "
            f"(step budget {oracle.budget}, needs at least {oracle.needed_budget})"
        )
    for problem in problems:
        print(f"problem: {problem}")
    if args.json:
        print_json_last(payload)
    return 0 if not problems else 1


def _check_many(tasks: list[Any], args: argparse.Namespace) -> int:
    rows, failed, reports = [], [], []
    with editor_page() as page:
        for task in progress_bar(tasks, desc="tasks check", unit="task"):
            problems, payload, checked = _check_task(task, page, args.primitive)
            reports.append(payload)
            oracle = checked[1] if checked else None
            steps = f"{oracle.status}, {oracle.steps} steps" if oracle is not None else "-"
            rows.append((task.id, "ok" if not problems else "FAIL", steps, "; ".join(problems)))
            if problems:
                failed.append(task.id)
    print(table(["task", "check", "primitive oracle", "problems"], rows))
    print(f"{len(tasks) - len(failed)} of {len(tasks)} tasks pass")
    if args.json:
        print_json_last({"tasks": len(tasks), "passed": len(tasks) - len(failed),
                         "failed": failed, "reports": reports})  # fmt: skip
    return 0 if not failed else 1


def _evaluate(args: argparse.Namespace) -> int:
    from scratch_gym.tasks import Evaluator, load_task
    from scratch_gym.tasks.projects import load_project

    if args.scratchworld:
        from scratch_gym.scratchworld.tasks import ScratchWorldCheckout

        task = ScratchWorldCheckout(args.scratchworld).load(args.task_id)
    else:
        task = load_task(args.task_id)
    source = (
        Path(args.project)
        if args.project
        else (task.golden.path if task.golden else task.start.path)
    )
    try:
        project = load_project(source)
    except (OSError, ValueError) as exc:
        raise UsageError(f"{exc} (an .sb3, project .json or .toml project)") from None
    with editor_page() as page:
        result = Evaluator(page, task).evaluate(project)
    rows = [
        ("pass" if t.passed else "FAIL", t.name, f"{t.frames / 30:.1f}", t.message)
        for t in result.tests
    ]
    print(table(["", "test", "virtual s", "message"], rows))
    print(f"psr {result.psr:.3f}  success {result.success}  wall {result.wall_s:.2f} s")
    if args.json:
        print_json_last(
            {"task": task.id, "project": str(source), **result.to_info(), "wall_s": result.wall_s}
        )
    return 0 if result.success else 1


def _new(args: argparse.Namespace) -> int:
    from scratch_gym.paths import tasks_dir
    from scratch_gym.tasks.registry import env_task_dirs
    from scratch_gym.tasks.scaffold import create_scaffold

    configured = env_task_dirs()
    root = Path(args.dir) if args.dir else (configured[0] if configured else Path("tasks"))
    folder = create_scaffold(root, args.task_id, args.category)
    known = [tasks_dir().resolve(), *(d.resolve() for d in configured)]
    flag = "" if root.resolve() in known else f" --tasks-dir {root}"
    files = sorted(p.name for p in folder.iterdir())
    print(f"created {folder}: {', '.join(files)}")
    print("fill in: the instruction (task.toml), the solution (golden.toml), the tests (tests.py)")
    print(f"then check it: scratch-gym tasks check {args.task_id}{flag}")
    if args.json:
        print_json_last(
            {
                "task": args.task_id,
                "folder": str(folder),
                "files": files,
                "check_flag": flag.strip(),
            }
        )
    return 0
