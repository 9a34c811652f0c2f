"""The Single-Step Drag suite (``single-drag``): one drag per episode, success when the intended
connection forms; reported as the paper's Pass@k / start / end / spatial-error table.

With ``scratchworld=PATH`` it runs the Single-Step Drag tasks of that ScratchWorld checkout
(:mod:`scratch_gym.scratchworld.drag`) instead of the stored ones; their feasible
regions are computed by BFS in this editor the first time they are selected (a progress bar) and
cached per task and editor version (``single_drag.feasible.cache.regions_cache_dir``). ``regions="model"``
probes the BFS with the calibrated drag model instead of real drags (seconds instead of minutes
per task; see :mod:`scratch_gym.single_drag.feasible.probe`).

With ``tasks_dirs=(DIR, ...)`` (``eval --tasks-dir DIR``) it runs the single-drag tasks in those
folders (the stored format: ``<id>/task.toml``, ``regions.json`` where known) instead; missing
regions are computed and cached the same way, outside DIR."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scratch_gym.suites.base import Suite, select_among


def _folder_tasks(folders: Sequence[str]) -> list[Any]:
    """The single-drag tasks of ``folders``; ids must be unique."""
    from scratch_gym.single_drag.tasks.task import load_tasks

    found: dict[str, Any] = {}
    for folder in folders:
        for task in load_tasks(folder=Path(folder)):
            if task.id in found:
                raise ValueError(f"task id {task.id!r} is in two task folders")
            found[task.id] = task
    if not found:
        raise ValueError(f"no single-drag task (<id>/task.toml) in {', '.join(folders)}")
    return list(found.values())


@dataclass(frozen=True)
class SingleDragSuite(Suite):
    """The stored single-drag tasks (``tasks/single_drag``) in one ``setting``: ``baseline``,
    ``gt_start`` (the start point is given) or ``knowledge`` (the grab/drop rules are given)."""

    setting: str = "baseline"
    scratchworld: str | None = None
    regions: str = "editor"  # a checkout's regions: BFS probed by real drags, or by the drag model
    tasks_dirs: tuple[str, ...] | None = None  # the user's folders of single-drag tasks
    name = "single-drag"
    modes = ("single_drag",)

    def __post_init__(self) -> None:
        from scratch_gym.single_drag.feasible.probe import check_probe
        from scratch_gym.single_drag.tasks.instructions import SETTINGS

        if self.setting not in SETTINGS:
            raise ValueError(f"setting must be one of {SETTINGS}, got {self.setting!r}")
        check_probe(self.regions)
        if self.scratchworld and self.tasks_dirs:
            raise ValueError("give a ScratchWorld checkout or task folders (--tasks-dir), not both")
        if self.regions != "editor" and not (self.scratchworld or self.tasks_dirs):
            raise ValueError(
                "regions='model' applies to a ScratchWorld checkout's tasks (scratchworld=PATH) "
                "or task folders (--tasks-dir); the stored tasks carry their regions "
                "(tasks/single_drag/<id>/regions.json)"
            )
        for folder in self.tasks_dirs or ():
            if not Path(folder).is_dir():
                raise ValueError(
                    f"{folder}: no such folder; a single-drag task folder holds <id>/task.toml"
                )

    @property
    def source(self) -> str:
        if self.scratchworld:
            return f"ScratchWorld single-drag tasks of {self.scratchworld}, {self.setting}"
        if self.tasks_dirs:
            return f"single-drag tasks of {', '.join(self.tasks_dirs)}, {self.setting}"
        return f"stored tasks, {self.setting}"

    @property
    def variant(self) -> str:
        return self.setting

    def select(
        self, categories: Sequence[str] | None = None, task_ids: Sequence[str] | None = None
    ) -> list[Any]:
        from scratch_gym.single_drag.tasks.task import load_tasks

        if self.scratchworld or self.tasks_dirs:
            return self._outside_tasks(categories, task_ids)
        tasks = select_among(load_tasks(), categories, task_ids)
        missing = [t.id for t in tasks if t.regions is None]
        if missing:
            raise ValueError(
                f"single-drag tasks without feasible regions: {', '.join(missing)}; run "
                "`scratch-gym single-drag --recompute-regions` first"
            )
        return tasks

    def load(self, task_id: str) -> Any:
        from scratch_gym.single_drag.tasks.task import load_tasks

        if self.scratchworld or self.tasks_dirs:
            return self._outside_tasks(None, [task_id], progress=False)[0]
        return load_tasks([task_id])[0]

    def _outside_tasks(
        self,
        categories: Sequence[str] | None,
        task_ids: Sequence[str] | None,
        progress: bool = True,
    ) -> list[Any]:
        """The checkout's or the folders' selected tasks with their regions (their own, cached,
        else computed by BFS now)."""
        from scratch_gym.scratchworld.checkout import ID_PREFIX
        from scratch_gym.single_drag.feasible.cache import attach_regions

        if self.scratchworld:
            from scratch_gym.scratchworld.drag import load_scratchworld_drag_tasks

            every = load_scratchworld_drag_tasks(self.scratchworld)
        else:
            every = _folder_tasks(self.tasks_dirs or ())
        tasks = select_among(every, categories, task_ids, id_prefix=ID_PREFIX)
        failed = attach_regions(tasks, progress=progress, probe=self.regions)
        if failed:
            details = "; ".join(f"{k}: {v}" for k, v in failed.items())
            raise ValueError(f"no feasible regions found for task(s): {details}")
        return tasks

    def make_env(self, mode: str, env_spec: Any) -> Any:
        from scratch_gym.envs.single_drag import SingleDragEnv

        self.check_mode(mode)
        return SingleDragEnv(setting=self.setting, render_mode="rgb_array")

    def judge(self, task: Any, info: dict[str, Any], action: Any = None) -> dict[str, Any]:
        from scratch_gym.single_drag.tasks.kinds import relation_kind, source_kind

        return {
            "psr": float(bool(info.get("success", False))),
            "setting": self.setting,
            "kind": task.kind,
            "relation": relation_kind(task),
            "source": source_kind(task),
            "start_correct": bool(info.get("start_correct", False)),
            "end_correct": bool(info.get("end_correct", False)),
            "start_error_px": _number(info.get("start_error_px")),
            "end_error_px": _number(info.get("end_error_px")),
        }

    def report(self, records: list[dict[str, Any]]) -> str:
        """The paper's table, then the same figures by interaction type (the task's kind:
        ScratchWorld's T1 direct connection / T2 slot insertion), by relation kind and by source
        (:mod:`scratch_gym.single_drag.tasks.kinds`)."""
        from scratch_gym.records.text import table
        from scratch_gym.single_drag.metrics import TABLE_HEADERS, table_row

        rows = [table_row(agent, setting, s) for (agent, setting), s in _summaries(records)]
        parts = [f"{TITLE}\n" + table(TABLE_HEADERS, rows)]
        for by, label in GROUPS.items():
            grouped = []
            for (agent, setting), groups in _grouped_summaries(records, by):
                grouped += [[label_of, *table_row(agent, setting, s)] for label_of, s in groups]
            if grouped:
                parts.append(
                    f"By {label} (%; errors in px)\n" + table((label, *TABLE_HEADERS), grouped)
                )
        return "\n\n".join(parts)

    def figures(self, records: list[dict[str, Any]]) -> dict[str, Any]:
        """Pass@1-3 (``None`` where fewer runs exist), start/end accuracy and errors of the (last)
        agent and setting in ``records``, and the same per interaction, relation and source."""
        out: dict[str, Any] = {}
        for _, s in _summaries(records):
            out = _json_figures(s)
        for by in GROUPS:
            for _, groups in _grouped_summaries(records, by):
                out[f"by_{by}"] = {g: _json_figures(s) for g, s in groups}
        return out


TITLE = (
    "Single-Step Drag (%; errors in px). Pass@k over every selected task (infrastructure errors "
    "count as failed runs; n/a: fewer than k runs); Acc over every episode; Err: mean over the "
    "misses (grab outside the start region; drop outside the end region after a right grab); "
    "Err all: mean over every drop"
)
# the report's groupings: record field -> table label
GROUPS = {"interaction": "interaction", "relation": "relation", "source": "source"}
UNKNOWN = "unknown"


def _number(value: Any) -> float | None:
    """A JSON-safe number: None for a missing or non-finite one."""
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def _json_figures(summary: dict[str, Any]) -> dict[str, Any]:
    """A summary for JSON: counts as integers, rates and distances as numbers or null."""
    return {k: v if isinstance(v, int) else _number(v) for k, v in summary.items()}


def _setting(record: dict[str, Any]) -> str:
    """The record's setting (an infrastructure error's from its key's variant)."""
    if record.get("setting"):
        return str(record["setting"])
    parts = str(record.get("key", "")).split("|")
    return parts[4] if len(parts) > 4 and parts[4] else "baseline"


def group_of(record: dict[str, Any], by: str, tasks: dict[str, Any] | None = None) -> str:
    """The group of a single-drag record: ``interaction`` (its task's kind), ``relation`` or
    ``source`` (recorded by the judge; else computed from ``tasks[id]`` where given)."""
    if by == "interaction":
        return str(record.get("kind") or record.get("category") or UNKNOWN)
    if by not in GROUPS:
        raise ValueError(f"unknown grouping {by!r}; allowed: {', '.join(GROUPS)}")
    if record.get(by):
        return str(record[by])
    task = (tasks or {}).get(record.get("task", ""))
    if task is None:
        return UNKNOWN
    from scratch_gym.single_drag.tasks.kinds import relation_kind, source_kind

    return relation_kind(task) if by == "relation" else source_kind(task)


def group_records(
    records: list[dict[str, Any]], by: str, tasks: dict[str, Any] | None = None
) -> dict[str, list[dict[str, Any]]]:
    """``records`` by interaction, relation or source (:func:`group_of`), in the order of
    :mod:`scratch_gym.single_drag.tasks.kinds` (unknown last): the one grouping of the suite's report
    and of ``benchmarks/drag_transfer.py``."""
    from scratch_gym.single_drag.tasks.kinds import RELATION_KINDS, SOURCE_KINDS
    from scratch_gym.single_drag.tasks.task import KINDS

    groups: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        groups.setdefault(group_of(r, by, tasks), []).append(r)
    order = {"interaction": KINDS, "relation": RELATION_KINDS, "source": SOURCE_KINDS}[by]
    rank = {k: i for i, k in enumerate(order)}
    return dict(sorted(groups.items(), key=lambda kv: (rank.get(kv[0], len(rank)), kv[0])))


def _run_records(records: list[dict[str, Any]]) -> dict[tuple[str, str], list[Any]]:
    """Per (agent, setting), every single-drag record as a RunRecord: an infrastructure error is
    a failed run (the denominator is every selected task)."""
    from scratch_gym.records.status import is_counted
    from scratch_gym.single_drag.metrics import RunRecord

    groups: dict[tuple[str, str], list[Any]] = {}
    for r in records:
        if r.get("mode") != "single_drag":
            continue
        key = (r["agent"], _setting(r))
        run = RunRecord.from_outcome(r["task"], int(r.get("run", 0)), r, infra=not is_counted(r))
        groups.setdefault(key, []).append((r, run))
    return groups


def _summaries(records: list[dict[str, Any]]) -> list[tuple[tuple[str, str], dict[str, Any]]]:
    """Pass@1-3 and the component figures per (agent, setting) of the single-drag records."""
    from scratch_gym.single_drag.metrics import table_summary

    return [
        (key, table_summary([run for _, run in pairs]))
        for key, pairs in _run_records(records).items()
    ]


def _grouped_summaries(
    records: list[dict[str, Any]], by: str
) -> list[tuple[tuple[str, str], list[tuple[str, dict[str, Any]]]]]:
    """Per (agent, setting), the figures of each group (:func:`group_records`)."""
    from scratch_gym.single_drag.metrics import table_summary

    out = []
    for key, pairs in _run_records(records).items():
        runs = {id(r): run for r, run in pairs}
        groups = group_records([r for r, _ in pairs], by)
        out.append(
            (key, [(g, table_summary([runs[id(r)] for r in rs])) for g, rs in groups.items()])
        )
    return out
