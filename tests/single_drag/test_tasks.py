"""The stored tasks: enough of each kind, regions present, and the oracle solves every one."""

from __future__ import annotations

import os
from collections import Counter

from scratch_gym.agents.single_drag import DragOracleAgent
from scratch_gym.single_drag.benchmark import run_agent
from scratch_gym.single_drag.task import load_tasks


def test_task_set_covers_both_kinds_views_and_sources():
    tasks = load_tasks()
    kinds = Counter(t.kind for t in tasks)
    assert kinds["direct_connection"] >= 30 and kinds["slot_insertion"] >= 30
    assert len({t.view.category for t in tasks}) >= 7
    assert len({t.view.scale for t in tasks}) >= 5
    assert {t.source.origin for t in tasks} == {"flyout", "canvas"}
    assert any(g.input == "SUBSTACK2" for t in tasks for g in t.goal)
    for t in tasks:
        assert t.regions is not None and t.regions.method == "bfs", t.id
        assert len(t.regions.start) and len(t.regions.end), t.id


def test_oracle_succeeds_on_stored_tasks(drag_env):
    """A slice in CI (every fourth task; all with SCRATCH_GYM_FULL=1); every task is the command
    ``scratch-gym eval --suite single-drag --agent oracle --workers 2``."""
    tasks = load_tasks()
    tasks = tasks if os.environ.get("SCRATCH_GYM_FULL") == "1" else tasks[::4]
    records, summary = run_agent(drag_env, DragOracleAgent(), tasks, runs=1, progress=False)
    failed = [r.task_id for r in records if not r.success]
    assert not failed, f"oracle failed on {failed}"
    assert summary["pass@1"] == 1.0 and summary["start_acc"] == 1.0
