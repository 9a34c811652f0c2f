"""docs/write-your-own-task.md works as it says: `tasks new`, the unfilled check's message, the
files the guide writes, and the check passing, run in the real editor."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from scratch_gym.cli import main
from scratch_gym.tasks.registry import TASKS_ENV

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "write-your-own-task.md"
GUIDE_DIR = "/tmp/mine"


def guide_files() -> dict[str, str]:
    """The files the guide fills in: its code blocks marked ``file=NAME``."""
    found = re.findall(r"```\w+ file=(\S+)\n(.*?)```", GUIDE.read_text(), re.S)
    return dict(found)


def guide_output(command: str, nth: int = 0) -> list[str]:
    """The output the guide shows for ``$ COMMAND`` (its ``nth`` console block that runs it)."""
    shown = []
    for block in re.findall(r"```console\n(.*?)```", GUIDE.read_text(), re.S):
        lines = block.splitlines()
        if lines and lines[0] == f"$ {command}":
            shown.append(lines[1:])
    assert len(shown) > nth, f"the guide shows no output of {command!r} (#{nth})"
    return shown[nth]


@pytest.mark.browser
def test_the_guides_worked_example_from_scaffold_to_passing_check(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv(TASKS_ENV, raising=False)
    mine = str(tmp_path / "mine")
    new = ["tasks", "new", "my-task", "--category", "create", "--dir"]
    check = ["tasks", "check", "my-task", "--tasks-dir"]

    assert main([*new, mine]) == 0
    shown = capsys.readouterr().out.replace(mine, GUIDE_DIR).splitlines()
    assert shown == guide_output(f"scratch-gym {' '.join(new)} {GUIDE_DIR}")

    assert main([*check, mine]) == 1  # the scaffold does not pass until it is filled in
    shown = capsys.readouterr().out.replace(mine, GUIDE_DIR).splitlines()
    assert shown == guide_output(f"scratch-gym {' '.join(check)} {GUIDE_DIR}")

    files = guide_files()
    assert sorted(files) == ["golden.toml", "task.toml", "tests.py"]
    for name, text in files.items():
        (tmp_path / "mine" / "create" / "my-task" / name).write_text(text)

    assert main([*check, mine, "--json"]) == 0, capsys.readouterr().out
    *table, last = capsys.readouterr().out.rstrip().splitlines()
    assert table == guide_output(f"scratch-gym {' '.join(check)} {GUIDE_DIR}", nth=1)
    report = json.loads(last)
    kinds = [c["kind"] for c in report["checks"] if c["ok"]]
    assert report["ok"] and kinds == ["golden", "start"] + ["removal"] * 5
