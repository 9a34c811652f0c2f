"""The paper's figures from a benchmark result: slot-level alignment (Figure 4) and metrics by
program length (Figure 6), as tables and, optionally, PNG charts.

* Figure 4: for each SAC slot, its mean score over the examples where it was comparable and its
  coverage (the fraction of examples where it was comparable), for SAC_nl and SAC_ref.
* Figure 6: the examples grouped by the reference program's length in lines (``LENGTH_BINS``),
  with the count, the EM, F1, PS, SAC_nl and SAC_ref averages and the perfect-SAC_ref rate
  (the share with SAC_ref = 100%, as the protocol compares it; the paper's Figure 6) of each
  group.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scratch_gym.nl2scratch.scoring import BenchmarkResult, ExampleScores
from scratch_gym.nl2scratch.slots import SLOT_ORDER

LENGTH_BINS: tuple[tuple[str, int, int], ...] = (
    ("<=5", 0, 5),
    ("6-10", 6, 10),
    ("11-15", 11, 15),
    ("16-20", 16, 20),
    ("21-30", 21, 30),
    (">=31", 31, 10**9),
)
LENGTH_METRICS = ("em", "f1", "ps", "sac_nl", "sac_ref", "sac_ref_perfect")
METRIC_LABELS = {
    "em": "EM",
    "f1": "F1",
    "ps": "PS",
    "sac_nl": "SAC_nl",
    "sac_ref": "SAC_ref",
    "sac_ref_perfect": "SAC_ref=100%",
}


def _slot_stats(examples: list[ExampleScores], attribute: str, slot: str) -> dict[str, Any]:
    values = [getattr(s, attribute).get(slot) for s in examples]
    scored = [v for v in values if v is not None]
    return {
        "mean": sum(scored) / len(scored) if scored else None,
        "coverage": len(scored) / len(values) if values else 0.0,
    }


def slot_alignment(result: BenchmarkResult) -> dict[str, dict[str, dict[str, Any]]]:
    """Figure 4: ``{slot: {"sac_nl": {mean, coverage}, "sac_ref": {mean, coverage}}}``."""
    return {
        slot: {
            "sac_nl": _slot_stats(result.examples, "sac_nl_slots", slot),
            "sac_ref": _slot_stats(result.examples, "sac_ref_slots", slot),
        }
        for slot in SLOT_ORDER
    }


def metrics_by_length(result: BenchmarkResult) -> list[dict[str, Any]]:
    """Figure 6: one row per length bin with ``bin``, ``n``, the metric averages and
    ``sac_ref_perfect``, the share of the bin's examples with a perfect SAC_ref (None when the
    bin is empty)."""
    perfect = result.protocol.perfect
    rows = []
    for label, low, high in LENGTH_BINS:
        group = [s for s in result.examples if low <= s.reference_lines <= high]
        row: dict[str, Any] = {"bin": label, "n": len(group)}
        for metric in LENGTH_METRICS:
            if metric == "sac_ref_perfect":
                values: list[float | None] = [float(perfect(s.sac_ref)) for s in group]
            else:
                values = [getattr(s, metric) for s in group]
            measured = [v for v in values if v is not None]
            row[metric] = (
                sum(measured) / len(measured) if measured and len(measured) == len(values) else None
            )
        rows.append(row)
    return rows


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}"


def format_slot_table(table: dict[str, dict[str, dict[str, Any]]]) -> str:
    """Figure 4 as text."""
    rows = [
        "slot-level alignment (Figure 4): mean score where comparable / coverage, in %",
        f"{'slot':<17}{'SAC_nl mean':>12}{'coverage':>10}{'SAC_ref mean':>14}{'coverage':>10}",
    ]
    for slot, sides in table.items():
        nl, ref = sides["sac_nl"], sides["sac_ref"]
        rows.append(
            f"{slot:<17}{_pct(nl['mean']):>12}{_pct(nl['coverage']):>10}"
            f"{_pct(ref['mean']):>14}{_pct(ref['coverage']):>10}"
        )
    return "\n".join(rows)


def format_length_table(rows: list[dict[str, Any]]) -> str:
    """Figure 6 as text."""
    out = [
        "metrics by reference length in lines (Figure 6), in %",
        f"{'lines':<8}{'n':>5}" + "".join(f"{METRIC_LABELS[m]:>14}" for m in LENGTH_METRICS),
    ]
    for row in rows:
        out.append(
            f"{row['bin']:<8}{row['n']:>5}" + "".join(f"{_pct(row[m]):>14}" for m in LENGTH_METRICS)
        )
    return "\n".join(out)


def plot_figures(result: BenchmarkResult, directory: str | Path) -> list[Path]:
    """Writes ``figure4_slot_alignment.png`` and ``figure6_by_length.png``; returns their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir = Path(directory)
    out_dir.mkdir(parents=True, exist_ok=True)
    title = f"{result.protocol.name} protocol, {len(result.examples)} examples"

    table = slot_alignment(result)
    fig, ax = plt.subplots(figsize=(9, 5))
    positions = range(len(SLOT_ORDER))
    for offset, side, label in ((-0.2, "sac_nl", "SAC_nl"), (0.2, "sac_ref", "SAC_ref")):
        means = [100 * (table[s][side]["mean"] or 0.0) for s in SLOT_ORDER]
        ax.barh([p + offset for p in positions], means, height=0.4, label=label)
    ax.set_yticks(list(positions), SLOT_ORDER)
    ax.invert_yaxis()
    ax.set_xlabel("mean slot score where comparable (%)")
    ax.set_xlim(0, 100)
    ax.set_title(f"Slot-level alignment ({title})")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2)
    fig.tight_layout()
    slot_path = out_dir / "figure4_slot_alignment.png"
    fig.savefig(slot_path, dpi=120)
    plt.close(fig)

    rows = metrics_by_length(result)
    fig, ax = plt.subplots(figsize=(8, 5))
    labels = [f"{r['bin']}\n(n={r['n']})" for r in rows]
    for metric in LENGTH_METRICS:
        values = [100 * r[metric] if r[metric] is not None else float("nan") for r in rows]
        style = "--" if metric == "sac_ref_perfect" else "-"  # a rate among the means
        ax.plot(labels, values, marker="o", linestyle=style, label=METRIC_LABELS[metric])
    ax.set_xlabel("reference program length (lines)")
    ax.set_ylabel("%")
    ax.set_ylim(0, 102)
    ax.set_title(f"Metrics by program length ({title})")
    ax.legend()
    fig.tight_layout()
    length_path = out_dir / "figure6_by_length.png"
    fig.savefig(length_path, dpi=120)
    plt.close(fig)
    return [slot_path, length_path]
