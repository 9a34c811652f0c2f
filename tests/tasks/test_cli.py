"""``scratch-gym tasks``: list with filters, the adversarial check of one task, evaluate."""

from __future__ import annotations

import argparse
import json
from contextlib import contextmanager

import pytest

from scratch_gym.cli import tasks as cli
from scratch_gym.cli.output import UsageError


@pytest.fixture
def shared_page(monkeypatch, page):
    """Commands use the test session's page instead of opening their own."""

    @contextmanager
    def use_shared():
        yield page

    monkeypatch.setattr(cli, "editor_page", use_shared)
    return page


def run_cli(capsys, *argv: str) -> tuple[int, dict]:
    parser = argparse.ArgumentParser()
    cli.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["tasks", *argv, "--json"])
    code = cli.run(args)
    last = capsys.readouterr().out.strip().splitlines()[-1]
    return code, json.loads(last)


def test_list_filters(capsys):
    code, out = run_cli(capsys, "list", "--category", "compute")
    assert code == 0 and out["count"] >= 3 and {t["id"] for t in out["tasks"]} >= {"sum-to-n"}
    code, out = run_cli(capsys, "list", "--block", "control_create_clone_of")
    ids = [t["id"] for t in out["tasks"]]
    assert "clone-stars" in ids and "sum-to-n" not in ids
    assert all("control_create_clone_of" in t["blocks"] for t in out["tasks"])


def test_check_one_task(capsys, shared_page):
    code, out = run_cli(capsys, "check", "fix-countdown")
    assert code == 0 and out["ok"] and out["task"] == "fix-countdown"
    assert {c["kind"] for c in out["checks"]} == {"golden", "start", "negative", "removal"}


def test_check_several_tasks_a_row_each(capsys, shared_page):
    code, out = run_cli(capsys, "check", "fix-countdown", "say-hello")
    assert code == 0 and out["tasks"] == 2 and out["passed"] == 2 and out["failed"] == []
    assert [r["task"] for r in out["reports"]] == ["fix-countdown", "say-hello"]
    with pytest.raises(UsageError, match="task ids, or --all"):
        run_cli(capsys, "check", "say-hello", "--all")


def test_evaluate_a_project_file(capsys, shared_page):
    from scratch_gym.tasks import load_task

    start = str(load_task("fix-countdown").start.path)
    code, out = run_cli(capsys, "evaluate", "fix-countdown", start)
    assert code == 1 and out["psr"] == 0.0 and not out["success"]
