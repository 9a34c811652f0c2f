"""Statistics of the task suite, computed from the task files themselves.

Per task: the non-shadow blocks the golden solution adds or changes relative to the starting
project (``blockdiff.changed_units``) and the distinct opcodes of the golden solution (shadow and
menu opcodes left out). For the suite: tasks per category, distinct opcodes overall and by
Scratch category, and the mean and maximum number of blocks changed.

Of a ScratchWorld checkout (``tasks --stats --scratchworld PATH``, :func:`checkout_stats`): the
paper's statistics: tasks per category, the blocks each golden modifies (mean, median, max, per
category) and the opcodes; the tasks without a ``*_golden.sb3`` are named, and left out of the
block and opcode figures.

From an oracle run's results (``scratch-gym eval --agent oracle``): per category, the primitive
and composite oracles' success and median steps (:func:`oracle_stats`, the README's table).
"""

from __future__ import annotations

import io
import json
import zipfile
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from statistics import mean, median
from typing import Any

from scratch_gym.program import catalogue
from scratch_gym.tasks.blockdiff import changed_units
from scratch_gym.tasks.projects import load_project
from scratch_gym.tasks.schema import Task


@dataclass(frozen=True)
class TaskStats:
    id: str
    category: str
    tests: int
    blocks_changed: int
    opcodes: tuple[str, ...]
    instruction: str


def _json(project: dict[str, Any] | bytes) -> dict[str, Any]:
    if isinstance(project, dict):
        return project
    with zipfile.ZipFile(io.BytesIO(project)) as zf:
        return json.loads(zf.read("project.json"))


def _opcodes(project: dict[str, Any]) -> set[str]:
    out = set()
    for target in project["targets"]:
        for block in target.get("blocks", {}).values():
            if isinstance(block, dict) and not block.get("shadow"):
                out.add(block["opcode"])
            elif isinstance(block, list) and block and block[0] in (12, 13):
                out.add("data_variable" if block[0] == 12 else "data_listcontents")
    return out


def task_stats(task: Task) -> TaskStats:
    """Blocks changed and opcodes used by one task's golden solution."""
    if task.start is None or task.golden is None:
        raise ValueError(f"task {task.id} has no starting or golden project")
    start = _json(load_project(task.start))
    golden = _json(load_project(task.golden))
    changed = changed_units(start, golden)
    return TaskStats(
        id=task.id,
        category=task.category,
        tests=len(task.tests),
        blocks_changed=len(changed),
        opcodes=tuple(sorted(_opcodes(golden))),
        instruction=" ".join(task.instruction.split()),
    )


def scratch_category(opcode: str) -> str:
    """The palette category of an opcode (from the catalogue; else its prefix)."""
    try:
        return catalogue.block(opcode).category
    except (KeyError, LookupError):
        return opcode.split("_", 1)[0]


def suite_stats(tasks: list[Task]) -> tuple[list[TaskStats], dict[str, Any]]:
    """Per-task statistics and the suite summary (what ``scratch-gym tasks --stats`` prints)."""
    rows = [task_stats(t) for t in tasks]
    opcodes = sorted({op for r in rows for op in r.opcodes})
    by_scratch_category = Counter(scratch_category(op) for op in opcodes)
    changed = [r.blocks_changed for r in rows]
    summary = {
        "tasks": len(rows),
        "by_category": dict(sorted(Counter(r.category for r in rows).items())),
        "distinct_opcodes": len(opcodes),
        "opcodes_by_scratch_category": dict(sorted(by_scratch_category.items())),
        "mean_blocks_changed": round(mean(changed), 2) if changed else 0.0,
        "max_blocks_changed": max(changed, default=0),
        "tasks_with_25_or_more_changed": sum(c >= 25 for c in changed),
        "tests": sum(r.tests for r in rows),
        "opcodes": opcodes,
    }
    return rows, summary


def checkout_stats(tasks: list[Task]) -> tuple[list[TaskStats], dict[str, Any]]:
    """A ScratchWorld checkout's statistics (its tasks paired with their goldens): tasks per
    category (all tasks), blocks modified per task (mean, median, max; mean and max per category)
    and opcodes, over the tasks with a golden; ``without_golden`` names the others. Their unit
    tests are the checkout's scripts, so no test count."""
    paired = [t for t in tasks if t.start is not None and t.golden is not None]
    rows, summary = suite_stats(paired)
    summary.pop("tests")
    changed = [r.blocks_changed for r in rows]
    by_cat: dict[str, list[int]] = {}
    for r in rows:
        by_cat.setdefault(r.category, []).append(r.blocks_changed)
    summary.update(
        tasks=len(tasks),
        by_category=dict(sorted(Counter(t.category for t in tasks).items())),
        tasks_with_golden=len(rows),
        without_golden=sorted(t.id for t in tasks if t not in paired),
        median_blocks_changed=median(changed) if changed else 0,
        blocks_changed_by_category={
            c: {"mean": round(mean(v), 2), "max": max(v), "tasks": len(v)}
            for c, v in sorted(by_cat.items())
        },
    )
    return rows, summary


def tasks_markdown(tasks: list[Task]) -> str:
    """The docs table of the suite: id, category, instruction, tests, blocks changed, opcodes."""
    rows, summary = suite_stats(tasks)
    lines = [
        f"{summary['tasks']} tasks ({', '.join(f'{k} {v}' for k, v in summary['by_category'].items())}); "
        f"{summary['distinct_opcodes']} distinct opcodes; "
        f"{summary['mean_blocks_changed']} blocks changed on average (max {summary['max_blocks_changed']}).",
        "",
        "| id | category | instruction | tests | blocks changed | opcodes |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        text = r.instruction if len(r.instruction) <= 160 else r.instruction[:157] + "..."
        text = text.replace("|", "\\|")
        lines.append(
            f"| `{r.id}` | {r.category} | {text} | {r.tests} | {r.blocks_changed} | {len(r.opcodes)} |"
        )
    return "\n".join(lines)


ORACLE_MODES = ("primitive", "composite")


def oracle_stats(records: Iterable[dict[str, Any]]) -> dict[str, dict[str, dict[str, Any]]]:
    """Per mode and category (and ``all``), from an oracle run's results records: tasks,
    successes, success rate, median and maximum steps of the successful episodes, and the tasks
    that failed with their status. Infrastructure errors are left out (this describes the tasks;
    the eval tables count them as failures)."""
    from scratch_gym.records.status import SUCCESS, is_counted, status_of

    out: dict[str, dict[str, dict[str, Any]]] = {}
    for mode in ORACLE_MODES:
        mine = [r for r in records if r.get("mode") == mode and is_counted(r)]
        if not mine:
            continue
        groups: dict[str, list[dict[str, Any]]] = {}
        for r in mine:
            groups.setdefault(str(r.get("category", "")), []).append(r)
        groups = {**dict(sorted(groups.items())), "all": mine}
        out[mode] = {}
        for category, rs in groups.items():
            won = [r for r in rs if status_of(r) == SUCCESS]
            steps = [int(r.get("steps", 0)) for r in won]
            out[mode][category] = {
                "episodes": len(rs),
                "success": len(won),
                "sr": len(won) / len(rs),
                "median_steps": median(steps) if steps else None,
                "max_steps": max(steps, default=None),
                "failures": {r["task"]: _why(r) for r in rs if status_of(r) != SUCCESS},
            }
    return out


def oracle_rows(stats: dict[str, dict[str, dict[str, Any]]]) -> tuple[list[str], list[list[Any]]]:
    """The oracle table: one row per category, success and median steps per mode."""
    modes = [m for m in ORACLE_MODES if m in stats]
    categories = list(dict.fromkeys(c for m in modes for c in stats[m] if c != "all")) + ["all"]
    headers = ["category"]
    for m in modes:
        headers += [f"{m} success", f"{m} median steps"]
    rows = []
    for c in categories:
        row: list[Any] = [c]
        for m in modes:
            s = stats[m].get(c)
            if s is None:
                row += ["-", "-"]
                continue
            row.append(f"{s['success']}/{s['episodes']} ({100 * s['sr']:.1f}%)")
            row.append("-" if s["median_steps"] is None else f"{s['median_steps']:g}")
        rows.append(row)
    return headers, rows


def oracle_markdown(stats: dict[str, dict[str, dict[str, Any]]]) -> str:
    """The oracle table as Markdown (for the README), failures listed below it."""
    headers, rows = oracle_rows(stats)
    lines = ["| " + " | ".join(headers) + " |", "|" + " --- |" * len(headers)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    for mode, cats in stats.items():
        for task, why in sorted(cats["all"]["failures"].items()):
            lines.append(f"- {mode} oracle fails `{task}`: {why}")
    return "\n".join(lines)


def _why(record: dict[str, Any]) -> str:
    from scratch_gym.records.status import status_of

    detail = record.get("unsupported") or record.get("ended_by") or record.get("error") or ""
    if record.get("agent_exception"):
        detail = str(record["agent_exception"]).splitlines()[0]
    detail = " ".join(str(detail).split())
    return f"{status_of(record)}" + (f" ({detail[:160]})" if detail else "")
