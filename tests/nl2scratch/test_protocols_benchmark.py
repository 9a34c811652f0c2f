"""benchmarks/nl2scratch_protocols.py on a slice: readable tables, then one JSON line."""

from __future__ import annotations

import importlib.util
import json

from scratch_gym.nl2scratch.slots import SLOT_ORDER

from .cases import DIAG_800, REPO_ROOT, SHARED_DIR, require_shared


def test_protocols_benchmark_prints_tables_and_a_json_line(capsys) -> None:
    require_shared(DIAG_800)
    path = REPO_ROOT / "benchmarks" / "nl2scratch_protocols.py"
    spec = importlib.util.spec_from_file_location("nl2scratch_protocols", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--shared", str(SHARED_DIR), "--limit", "25"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    figures = json.loads(out[-1])["sets"]
    assert list(figures) == ["gold pairs", *module.FILES]
    gold = figures["gold pairs"]
    assert gold["n"] == 25 and gold["paper"]["em"] == gold["robust"]["em"] == 1.0
    assert set(gold["slot_disagreements"]["sac_nl"]) == set(SLOT_ORDER)
    # the paper protocol leaves loop slots out of SAC_ref: every item with a loop disagrees there
    assert figures["gpt41_diag800_0shot"]["slot_disagreements"]["sac_ref"]["loop_types"] > 0
    assert "items where the protocols disagree, per SAC slot" in "\n".join(out)
