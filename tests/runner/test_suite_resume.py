"""The runner: an interrupted evaluation resumes without redoing or duplicating episodes, in
worker processes; the eval command reports tables, a plot and the closing JSON line."""

from __future__ import annotations

import argparse
import json
import os

import pytest

from scratch_gym.cli import eval as eval_cmd
from scratch_gym.runner import AgentSpec, ResultsFile, ResumeError, run_suite

TASK = "say-hello"


def main(argv: list[str]) -> int:
    """``scratch-gym eval ...`` (the subcommand's own parser)."""
    parser = argparse.ArgumentParser()
    eval_cmd.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.handler(args)


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    path = tmp_path_factory.mktemp("eval") / "oracle.jsonl"
    spec = AgentSpec("oracle")
    first = run_suite(spec, task_ids=[TASK], runs=3, results=path, limit=1, progress=False)
    assert [r["run"] for r in first] == [0] and first[0]["success"]
    # a crash while writing the next record leaves a partial line
    with open(path, "a") as fh:
        fh.write('{"key": "oracle|primitive|say-hello|1", "status": "o')
    with pytest.raises(ResumeError):
        run_suite(spec, task_ids=[TASK], runs=3, results=path, progress=False)
    done = run_suite(
        spec, task_ids=[TASK], runs=3, results=path, resume=True, workers=2, progress=False
    )
    return path, first[0], done


@pytest.mark.slow
@pytest.mark.browser
def test_resume_runs_only_the_missing_episodes_in_processes(results):
    path, first, done = results
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["run"] for r in lines].count(0) == 1  # not redone
    assert sorted(r["run"] for r in lines) == [0, 1, 2]  # nothing lost, nothing twice
    assert lines[0] == first
    assert all(r["status"] == "success" and r["success"] for r in done)
    new_hosts = {r["host"].split(":")[1] for r in lines[1:]}
    assert str(os.getpid()) not in new_hosts  # ran in worker processes
    # a further resume has nothing left to do
    again = run_suite(
        AgentSpec("oracle"), task_ids=[TASK], runs=3, results=path, resume=True, progress=False
    )
    assert len(again) == 3 and len(path.read_text().splitlines()) == 3


@pytest.mark.browser
def test_eval_report_prints_table1_plot_and_json(results, tmp_path, capsys):
    path, _, _ = results
    plot = tmp_path / "categories.png"
    assert main(["eval", "--report", str(path), "--plot", str(plot), "--json"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    summary = json.loads(out[-1])
    assert summary["sr"] == 1.0 and summary["psr"] == 1.0 and summary["episodes"] == 3
    text = "\n".join(out)
    assert "Primitive mode" in text and "Create" in text and "PSR" in text
    row = next(line for line in out if line.startswith("oracle"))
    assert row.split()[1:7] == ["100.0", "-", "-", "-", "100.0", "100.0"]
    assert plot.stat().st_size > 1000


def test_results_file_keeps_the_last_record_of_a_key(tmp_path):
    store = ResultsFile(tmp_path / "r.jsonl")
    store.append({"key": "a", "status": "infrastructure_error"})
    store.append({"key": "b", "status": "ok"})
    store.append({"key": "a", "status": "ok"})
    assert [r["key"] for r in store.records()] == ["a", "b"]
    assert store.done_keys() == {"a", "b"}
