"""The paper protocol beside the robust one on the NL2Scratch 800 set and the shared predictions.

    python benchmarks/nl2scratch_protocols.py [--shared ../shared] [--limit N]

For the 800 gold pairs (each reference program against its own description) and for the three
shared prediction files, scores every item under both protocols and counts, per SAC slot, the
items where the two protocols give a different slot score (a different value, or comparable under
one and not the other), and per item metric (EM, PS, SAC perfect) the items where they disagree.
Prints the Table 2 columns of both protocols, the disagreement tables and the time per item;
the last line is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from tqdm import tqdm

from scratch_gym.nl2scratch.inputs import load_examples
from scratch_gym.nl2scratch.protocols import get_protocol
from scratch_gym.nl2scratch.scoring import LABELS, METRICS, score_examples
from scratch_gym.nl2scratch.slots import SLOT_ORDER

REPO = Path(__file__).resolve().parents[1]
FILES = ("gpt41_diag800_0shot", "gpt41_diag800_20shot", "gpt54_diag800_20shot")
ITEM_METRICS = ("em", "ps", "sac_nl_perfect", "sac_ref_perfect")


def _slot_disagreements(paper: list, robust: list, side: str) -> dict[str, int]:
    return {
        slot: sum(
            1
            for p, r in zip(paper, robust, strict=True)
            if getattr(p, side).get(slot) != getattr(r, side).get(slot)
        )
        for slot in SLOT_ORDER
    }


def _item_disagreements(paper: list, robust: list) -> dict[str, int]:
    pairs = list(zip(paper, robust, strict=True))
    return {
        "em": sum(p.em != r.em for p, r in pairs),
        "ps": sum(p.ps != r.ps for p, r in pairs),
        "sac_nl_perfect": sum((p.sac_nl >= 1.0) != (r.sac_nl > 1 - 1e-9) for p, r in pairs),
        "sac_ref_perfect": sum((p.sac_ref >= 1.0) != (r.sac_ref > 1 - 1e-9) for p, r in pairs),
    }


def _compare(examples: list, label: str, postprocess: bool | None) -> dict:
    runs, seconds = {}, {}
    for name in ("paper", "robust"):
        protocol = get_protocol(name, postprocess if name == "paper" else None)
        t0 = time.perf_counter()
        runs[name] = score_examples(examples, protocol=protocol, bootstrap=0, progress=False,
                              compare_strategies=False)  # fmt: skip
        seconds[name] = time.perf_counter() - t0
    paper, robust = runs["paper"].examples, runs["robust"].examples
    return {
        "label": label,
        "n": len(examples),
        "paper": runs["paper"].metrics,
        "robust": runs["robust"].metrics,
        "ms_per_item": {k: 1000 * v / max(1, len(examples)) for k, v in seconds.items()},
        "item_disagreements": _item_disagreements(paper, robust),
        "slot_disagreements": {
            "sac_nl": _slot_disagreements(paper, robust, "sac_nl_slots"),
            "sac_ref": _slot_disagreements(paper, robust, "sac_ref_slots"),
        },
    }


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}"


def _print(rows: list[dict]) -> None:
    print("Table 2 columns, paper / robust protocol (%)")
    print(f"{'set':<24}" + "".join(f"{LABELS[m]:>16}" for m in METRICS))
    for row in rows:
        print(f"{row['label']:<24}" + "".join(
            f"{_pct(row['paper'][m]) + ' / ' + _pct(row['robust'][m]):>16}" for m in METRICS))  # fmt: skip
    print()
    print("items where the protocols disagree, per SAC slot (SAC_nl | SAC_ref)")
    print(f"{'slot':<17}" + "".join(f"{row['label'][:22]:>24}" for row in rows))
    for slot in SLOT_ORDER:
        cells = [
            f"{row['slot_disagreements']['sac_nl'][slot]} | {row['slot_disagreements']['sac_ref'][slot]}"
            for row in rows
        ]
        print(f"{slot:<17}" + "".join(f"{c:>24}" for c in cells))
    print()
    print("items where the protocols disagree, per item metric")
    print(f"{'metric':<17}" + "".join(f"{row['label'][:22]:>24}" for row in rows))
    for metric in ITEM_METRICS:
        print(f"{metric:<17}" + "".join(f"{row['item_disagreements'][metric]:>24}" for row in rows))
    print()
    print("ms per item: " + ", ".join(
        f"{row['label']}: paper {row['ms_per_item']['paper']:.1f}, robust "
        f"{row['ms_per_item']['robust']:.1f}" for row in rows))  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", type=Path, default=REPO.parent / "shared", help="shared data dir")
    ap.add_argument("--limit", type=int, default=None, help="first N items only")
    args = ap.parse_args(argv)
    data = args.shared / "data" / "nl2scratch"
    references = data / "test_sac_primary_subset_800.jsonl"
    if not references.is_file():
        print(f"nl2scratch_protocols: {references} not found (pass --shared)", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    ref_rows = [json.loads(x) for x in references.read_text(encoding="utf-8").splitlines() if x]
    ref_rows = ref_rows[: args.limit] if args.limit else ref_rows
    sets = [("gold pairs", ref_rows, "pseudocode")]
    sets += [(name, data / "predictions" / f"{name}.jsonl", "predicted_pseudocode")
             for name in FILES]  # fmt: skip
    rows = []
    for label, predictions, field in tqdm(sets, desc="sets", file=sys.stderr):
        examples, _ = load_examples(ref_rows, predictions, field)
        # gold pairs are scored as written; predictions with each protocol's default
        rows.append(_compare(examples, label, False if label == "gold pairs" else None))
    _print(rows)
    figures = {row["label"]: {k: v for k, v in row.items() if k != "label"} for row in rows}
    print(json.dumps({"sets": figures, "seconds": round(time.perf_counter() - t0, 1)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
