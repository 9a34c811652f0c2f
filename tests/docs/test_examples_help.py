"""Every example script's ``--help`` shows each option's default and how long a run at the
defaults takes (they mean minutes to hours of training)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("stable_baselines3", reason="the examples need the rl extra")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("script", sorted(p.name for p in EXAMPLES.glob("*.py")))
def test_help_shows_defaults_and_a_time_estimate(script):
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), "--help"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())  # argparse wraps lines anywhere
    options = re.findall(r"^\s{2}(--[\w-]+)", done.stdout, re.M)
    assert options, done.stdout
    assert text.count("(default: ") == len(options), done.stdout  # one per option (not -h)
    description = text.split(" options: ")[0]
    assert re.search(r"Time: about [\d.,-]+ (minutes|hours)", description), description
