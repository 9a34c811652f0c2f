"""Shared cases of the NL2Scratch tests: the paper's worked example and the 800-example file."""

from __future__ import annotations

from tests.shared_data import REPO_ROOT, REQUIRE_SHARED, SHARED_DIR, require_shared  # noqa: F401

DIAG_800 = SHARED_DIR / "data" / "nl2scratch" / "test_sac_primary_subset_800.jsonl"

WORKED_PROGRAM = [
    "when @greenFlag clicked",
    "set [score v] to (0)",
    "forever",
    "    go to x: (-171) y: (-97)",
    "    if <key (space v) pressed?> then",
    "        repeat until <<touching (edge v)?> or <touching (Receiver1 v)?>>",
    "            move (10) steps",
    "        end",
    "    end",
    "    if <key (a v) pressed?> then",
    "        turn right (15) degrees",
    "    end",
    "    if <key (d v) pressed?> then",
    "        turn left (15) degrees",
    "    end",
    "end",
]
WORKED_DESCRIPTION = (
    "When the green flag is clicked, set score to 0. Forever, go to x=-171, y=-97. If the space "
    "key is pressed, move 10 steps until you touch the edge or Receiver1. If the a key is pressed, "
    "turn right 15 degrees. If the d key is pressed, turn left 15 degrees."
)

PREDICTIONS_DIR = SHARED_DIR / "data" / "nl2scratch" / "predictions"
PUBLISHED_FIXTURES = REPO_ROOT / "tests" / "fixtures" / "nl2scratch_published"
PREDICTION_FILES = ("gpt41_diag800_0shot", "gpt41_diag800_20shot", "gpt54_diag800_20shot")


def run_cli(*argv: str) -> int:
    """Runs ``scratch-gym nl2scratch ARGV`` in-process and returns its exit code."""
    import argparse

    from scratch_gym.cli import nl2scratch as cli

    parser = argparse.ArgumentParser(prog="scratch-gym")
    cli.register(parser.add_subparsers(dest="command"))
    return cli.run(parser.parse_args(["nl2scratch", *argv]))
