"""``scratch-gym tasks --stats --oracle-results``: per category, each oracle's success and median
steps from eval results files (infrastructure errors left out, failures listed with reasons)."""

from __future__ import annotations

import json

from scratch_gym.cli import main
from scratch_gym.runner import ResultsFile


def record(mode, task, category, status, steps, **extra):
    key = f"oracle|{mode}|{task}|0"
    return {"key": key, "agent": "oracle", "mode": mode, "task": task, "category": category,
            "status": status, "success": status == "success", "psr": 1.0, "steps": steps, **extra}  # fmt: skip


def test_oracle_table_per_category(tmp_path, capsys):
    prim, comp = ResultsFile(tmp_path / "p.jsonl"), ResultsFile(tmp_path / "c.jsonl")
    for r in (
        record("primitive", "a", "create", "success", 10),
        record("primitive", "b", "create", "success", 30),
        record("primitive", "c", "create", "success", 21),
        record("primitive", "d", "debug", "agent_error", 2, unsupported="custom blocks"),
        record("primitive", "e", "debug", "infrastructure_error", 0),
        record("primitive", "f", "debug", "failure", 50, ended_by="budget"),
    ):
        prim.append(r)
    comp.append(record("composite", "a", "create", "success", 4))
    comp.append(record("composite", "d", "debug", "ok", 7, success=True))  # old vocabulary
    args = ["tasks", "--stats", "--oracle-results", str(prim.path), str(comp.path), "--json"]
    assert main(args) == 0
    out = capsys.readouterr().out.strip().splitlines()
    stats = json.loads(out[-1])
    create, debug = stats["primitive"]["create"], stats["primitive"]["debug"]
    assert (create["success"], create["episodes"], create["median_steps"]) == (3, 3, 21)
    assert (debug["success"], debug["episodes"], debug["median_steps"]) == (0, 2, None)
    assert debug["failures"] == {
        "d": "agent_error (custom blocks)",
        "f": "failure (budget)",
    }
    assert stats["composite"]["all"]["success"] == 2 and stats["composite"]["all"]["sr"] == 1.0
    row = next(line for line in out if line.startswith("create"))
    assert row.split() == ["create", "3/3", "(100.0%)", "21", "1/1", "(100.0%)", "4"]
    assert "primitive oracle fails d: agent_error (custom blocks)" in out

    assert main([*args[:-1], "--markdown"]) == 0
    md = capsys.readouterr().out
    assert "| debug | 0/2 (0.0%) | - | 1/1 (100.0%) | 7 |" in md
    assert "- primitive oracle fails `f`: failure (budget)" in md


def test_oracle_table_bad_input(tmp_path, capsys):
    assert main(["tasks", "--stats", "--oracle-results", str(tmp_path / "none.jsonl")]) == 2
    assert (
        "error: scratch-gym tasks: argument --oracle-results: no such file:"
        in capsys.readouterr().err
    )
