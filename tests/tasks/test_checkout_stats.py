"""``scratch-gym tasks --stats --scratchworld PATH``: the paper's statistics of a ScratchWorld
checkout (tasks per category, blocks each golden modifies, opcodes), read from its files."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

from scratch_gym.cli import main
from tests.shared_data import SCRATCHWORLD_DIR, require_shared

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "scratchworld"
STATIC = Path("scratch-gui") / "static"


def golden_of(start: Path, golden: Path) -> None:
    """The start project plus a green-flag script of three blocks (and a number shadow)."""
    with zipfile.ZipFile(start) as zf:
        project = json.loads(zf.read("project.json"))
    sprite = next(t for t in project["targets"] if not t["isStage"])
    sprite["blocks"] = {
        "hat": {"opcode": "event_whenflagclicked", "next": "say", "parent": None, "inputs": {},
                "fields": {}, "shadow": False, "topLevel": True, "x": 0, "y": 0},
        "say": {"opcode": "looks_say", "next": "move", "parent": "hat",
                "inputs": {"MESSAGE": [1, [10, "Hello!"]]}, "fields": {}, "shadow": False,
                "topLevel": False},
        "move": {"opcode": "motion_movesteps", "next": None, "parent": "say",
                 "inputs": {"STEPS": [1, "num"]}, "fields": {}, "shadow": False,
                 "topLevel": False},
        "num": {"opcode": "math_number", "next": None, "parent": "move", "inputs": {},
                "fields": {"NUM": ["10", None]}, "shadow": True, "topLevel": False},
    }  # fmt: skip
    with zipfile.ZipFile(golden, "w") as zf:
        zf.writestr("project.json", json.dumps(project))


def stats(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(["tasks", "--stats", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_checkout_statistics_count_the_blocks_each_golden_modifies(tmp_path, capsys):
    checkout = tmp_path / "ScratchWorld"
    shutil.copytree(FIXTURE, checkout)
    code, out, _ = stats(["--scratchworld", str(checkout), "--json"], capsys)
    assert code == 0
    s = json.loads(out.strip().splitlines()[-1])
    assert s["tasks"] == 1 and s["by_category"] == {"create": 1} and s["tasks_with_golden"] == 0
    assert s["without_golden"] == ["scratchworld-greet_and_move"]
    static = checkout / STATIC
    golden_of(static / "greet_and_move.sb3", static / "greet_and_move_golden.sb3")
    code, out, _ = stats(["--scratchworld", str(checkout), "--json"], capsys)
    s = json.loads(out.strip().splitlines()[-1])
    assert (s["tasks_with_golden"], s["without_golden"]) == (1, [])
    assert s["mean_blocks_changed"] == s["max_blocks_changed"] == s["median_blocks_changed"] == 3
    assert s["blocks_changed_by_category"] == {"create": {"mean": 3, "max": 3, "tasks": 1}}
    assert s["opcodes"] == ["event_whenflagclicked", "looks_say", "motion_movesteps"]
    assert s["opcodes_by_scratch_category"] == {"events": 1, "looks": 1, "motion": 1}
    assert "tests" not in s and " tests " not in out.splitlines()[0]  # its tests are scripts
    code, _, err = stats(["--scratchworld", str(checkout), "--category", "debug"], capsys)
    assert code == 2 and err == f"error: no category 'debug' in {checkout} (create)\n"
    code, _, err = stats(["--scratchworld", str(tmp_path)], capsys)
    assert code == 2 and err.startswith("error: ") and "tasks/ is missing" in err


def test_the_shared_checkout_has_the_papers_83_tasks():
    from scratch_gym.scratchworld.tasks import scratchworld_tasks
    from scratch_gym.tasks.stats import checkout_stats

    _, s = checkout_stats(scratchworld_tasks(require_shared(SCRATCHWORLD_DIR)))
    assert s["tasks"] == 83 and s["without_golden"] == []
    assert s["by_category"] == {"compute": 25, "create": 20, "debug": 20, "extend": 18}
