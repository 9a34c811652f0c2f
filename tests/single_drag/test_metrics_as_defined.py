"""The single-drag figures as ScratchWorld defines them (``results_single_step_drag_benchmark.py``):
Pass@k only where k runs exist (n/a, null otherwise), spatial errors over the misses only, and the
report's groupings by interaction, relation and source."""

from __future__ import annotations

import json
import math
import re

import pytest

from scratch_gym.cli import main
from scratch_gym.single_drag.metrics import RunRecord, pass_at_k, summarise
from scratch_gym.single_drag.tasks.kinds import relation_kind, source_kind
from scratch_gym.single_drag.tasks.task import load_tasks
from scratch_gym.suites import make_suite
from scratch_gym.suites.single_drag import group_records


@pytest.mark.browser
def test_pass_at_k_with_one_run_prints_na_and_writes_null(tmp_path, capsys):
    """The real editor, one run of one task: Pass@2 and Pass@3 are not measured."""
    results = tmp_path / "one-run.jsonl"
    code = main(["eval", "--suite", "single-drag", "--agent", "oracle", "--tasks", "dc-01",
                 "--runs", "1", "--results", str(results), "--no-progress", "--json"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0, out
    lines = out.strip().splitlines()
    header = next(line for line in lines if line.startswith("Agent "))
    rule, row = lines[lines.index(header) + 1 : lines.index(header) + 3]
    spans = [m.span() for m in re.finditer(r"-+", rule)]  # the columns, under their names
    cells = {header[i:j].strip(): row[i:j].strip() for i, j in spans}
    assert (cells["Pass@1"], cells["Pass@2"], cells["Pass@3"]) == ("100.0", "n/a", "n/a")
    summary = json.loads(lines[-1])
    assert summary["pass@1"] == 1.0 and summary["pass@2"] is None and summary["pass@3"] is None
    assert "null" in lines[-1] and summary["runs"] == 1 and summary["tasks"] == 1
    # the judge records the relation and source kinds; the report groups by them
    record = json.loads(results.read_text().splitlines()[0])
    task = load_tasks(["dc-01"])[0]
    assert (record["relation"], record["source"]) == (relation_kind(task), source_kind(task))
    for title in ("By interaction", "By relation", "By source"):
        assert title in out
    assert summary["by_relation"][record["relation"]]["pass@1"] == 1.0
    assert summary["by_interaction"][task.kind]["pass@2"] is None


def test_pass_at_k_needs_k_runs_of_every_task():
    ok = RunRecord("a", 0, True, True, True, 0.0, 0.0)
    records = [ok, RunRecord("a", 1, True, True, True, 0.0, 0.0), RunRecord("b", 0, *[False] * 3,
               9.0, 9.0)]  # fmt: skip
    assert pass_at_k(records, 1) == 0.5
    assert pass_at_k(records, 2) is None  # task b has one run only
    assert pass_at_k([ok], 2) is None and pass_at_k([], 1) is None


def test_spatial_error_over_misses_only():
    """Start Err: grabs outside the start region; End Err: drops outside the end region of
    episodes grabbed inside it (the paper's start and end gaps). Hits do not pull them to 0."""
    records = [
        RunRecord("hit", 0, True, True, True, 0.0, 0.0),
        RunRecord("inside-drop", 0, False, True, True, 0.0, 0.0),  # failed, drop in the region
        RunRecord("end-miss", 0, False, True, False, 0.0, 30.0),
        RunRecord("start-miss", 0, False, False, False, 12.0, 50.0),  # end not measured: bad grab
        RunRecord("infra", 0, False, False, False, math.nan, math.nan, infra=True),
    ]
    s = summarise(records)
    assert s["start_err_px"] == 12.0 and s["start_misses"] == 1
    assert s["end_err_px"] == 30.0 and s["end_misses"] == 1
    # the all-drop means, a second, named figure
    assert s["start_err_all_px"] == pytest.approx(12.0 / 4)
    assert s["end_err_all_px"] == pytest.approx(80.0 / 4)
    assert s["pass@1"] == 0.2 and s["tasks"] == 5 and s["infra"] == 1
    assert math.isnan(summarise(records[:2])["start_err_px"])  # no miss: not measured


def test_infrastructure_errors_count_in_every_denominator_and_group():
    suite = make_suite("single-drag")
    base = {"mode": "single_drag", "agent": "a", "run": 0, "category": "direct_connection"}
    records = [
        {**base, "task": "dc-01", "status": "success", "success": True, "setting": "baseline",
         "kind": "direct_connection", "relation": "below", "source": "palette",
         "start_correct": True, "end_correct": True, "start_error_px": 0.0, "end_error_px": 0.0},
        {**base, "task": "dc-02", "status": "infrastructure_error",
         "key": "a|single_drag|dc-02|0|baseline"},
    ]  # fmt: skip
    figures = suite.figures(records)
    assert figures["pass@1"] == 0.5 and figures["infra"] == 1 and figures["tasks"] == 2
    assert figures["by_interaction"]["direct_connection"]["pass@1"] == 0.5
    header, _, row = suite.report(records).splitlines()[1:4]
    assert header.split()[-1] == "infra" and row.split()[-1] == "1"


def test_groupings_are_one_implementation_for_report_and_benchmark():
    """Records without the judge's kinds (older files) take them from the tasks given."""
    tasks = {t.id: t for t in load_tasks()}
    records = [{"task": tid, "category": t.kind, "success": True} for tid, t in tasks.items()]
    by_relation = group_records(records, "relation", tasks)
    assert (
        sum(len(rs) for rs in by_relation.values()) == len(tasks) and "unknown" not in by_relation
    )
    for kind, rs in by_relation.items():
        assert all(relation_kind(tasks[r["task"]]) == kind for r in rs)
    assert set(group_records(records, "interaction")) <= {"direct_connection", "slot_insertion"}
    assert set(group_records(records, "source")) == {"unknown"}  # no kinds and no tasks
    with pytest.raises(ValueError, match="allowed: interaction, relation, source"):
        group_records(records, "colour")
