"""Figure 4 (slot-level alignment) and Figure 6 (metrics by program length): tables and PNGs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scratch_gym.nl2scratch.slots import SLOT_ORDER

from .cases import WORKED_DESCRIPTION, WORKED_PROGRAM, run_cli

SHORT = ["when this sprite clicked", "say [Hello!] for (2) seconds"]
SHORT_NL = "When this sprite is clicked, say Hello! for 2 seconds."


def test_figure_tables_and_plots(tmp_path: Path, capsys) -> None:
    refs = tmp_path / "refs.jsonl"
    refs.write_text(
        json.dumps({"key": "a", "nl": WORKED_DESCRIPTION, "pseudocode": WORKED_PROGRAM}) + "\n"
        + json.dumps({"key": "b", "nl": SHORT_NL, "pseudocode": SHORT}) + "\n"
    )  # fmt: skip
    preds = tmp_path / "preds.jsonl"
    preds.write_text(json.dumps({"key": "a", "prediction": WORKED_PROGRAM}) + "\n")
    plots = tmp_path / "plots"
    assert run_cli("--references", str(refs), "--predictions", str(preds), "--plot", str(plots),
                   "--json", "--bootstrap", "0", "--quiet") == 0  # fmt: skip
    out = capsys.readouterr().out.strip().splitlines()
    result = json.loads(out[-1])
    slots = result["figure4_slots"]
    assert list(slots) == list(SLOT_ORDER)
    # "a" is scored, "b" has no prediction (no comparable slot): coverage is one example in two
    assert slots["event_type"]["sac_ref"] == {"mean": 1.0, "coverage": 0.5}
    assert slots["loop_types"]["sac_ref"]["coverage"] == 0.0  # left out by the paper protocol
    rows = {r["bin"]: r for r in result["figure6_by_length"]}
    assert rows["<=5"]["n"] == 1 and rows["<=5"]["em"] == 0.0
    assert rows["16-20"]["n"] == 1 and rows["16-20"]["em"] == 1.0 and rows["6-10"]["n"] == 0
    text = "\n".join(out)
    assert "slot-level alignment (Figure 4)" in text and "(Figure 6)" in text
    for name in ("figure4_slot_alignment.png", "figure6_by_length.png"):
        data = (plots / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000


def test_figure6_gives_the_perfect_sac_ref_rate_beside_the_mean() -> None:
    from scratch_gym.nl2scratch.figures import format_length_table, metrics_by_length
    from scratch_gym.nl2scratch.protocols import get_protocol
    from scratch_gym.nl2scratch.scoring import BenchmarkResult, ExampleScores

    def example(key: str, sac_ref: float, lines: int) -> ExampleScores:
        return ExampleScores(key, None, 0.0, 0.5, 1.0, 0.9, sac_ref, reference_lines=lines)

    examples = [example("a", 1.0, 3), example("b", 0.5, 4), example("c", 0.9, 5),
                example("d", 1.0, 12)]  # fmt: skip
    result = BenchmarkResult({}, {}, examples, get_protocol("paper"))
    rows = {r["bin"]: r for r in metrics_by_length(result)}
    assert rows["<=5"]["sac_ref"] == pytest.approx(0.8)  # the mean
    assert rows["<=5"]["sac_ref_perfect"] == pytest.approx(1 / 3)  # the rate of SAC_ref = 100%
    assert rows["11-15"]["sac_ref_perfect"] == 1.0 and rows["6-10"]["sac_ref_perfect"] is None
    table = format_length_table(list(rows.values()))
    assert "SAC_ref=100%" in table and "33.3" in table
