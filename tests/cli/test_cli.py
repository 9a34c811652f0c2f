"""The one command-line entry point: every subcommand is wired, and python -m is the same."""

from __future__ import annotations

import json
import subprocess
import sys

from scratch_gym.cli import SUBCOMMANDS, build_parser


def test_every_subcommand_has_a_handler():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    assert sorted(sub.choices) == sorted(SUBCOMMANDS)
    for name, subparser in sub.choices.items():
        assert callable(subparser.get_default("handler")), name


def test_python_dash_m_is_the_same_command_and_json_is_last():
    out = subprocess.run(
        [sys.executable, "-m", "scratch_gym", "envs", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    payload = json.loads(out.stdout.strip().splitlines()[-1])
    assert "ScratchWorld-Primitive-v0" in payload["envs"]
    assert "ScratchWorld-Composite-v0" in payload["envs"]
