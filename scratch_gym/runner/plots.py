"""Plots of per-category results (matplotlib, headless): SR bars per agent, one panel per mode."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from scratch_gym.suites.tasks import CATEGORIES, summary


def plot_categories(records: Iterable[dict[str, Any]], path: str | Path) -> Path:
    """Save a bar chart of success rate per category (and overall SR / PSR) to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    records = list(records)
    modes = list(dict.fromkeys(r["mode"] for r in records if r.get("mode")))
    labels = [c.capitalize() for c in CATEGORIES] + ["SR", "PSR"]
    fig, axes = plt.subplots(
        1, max(1, len(modes)), figsize=(6 * max(1, len(modes)), 4), squeeze=False
    )
    for ax, mode in zip(axes[0], modes, strict=False):
        agents = list(dict.fromkeys(r["agent"] for r in records if r.get("mode") == mode))
        width = 0.8 / max(1, len(agents))
        for i, agent in enumerate(agents):
            s = summary(r for r in records if r.get("mode") == mode and r["agent"] == agent)
            values = [100 * (s["categories"].get(c, {}).get("sr") or 0.0) for c in CATEGORIES]
            values += [100 * (s["sr"] or 0.0), 100 * (s["psr"] or 0.0)]
            xs = [j + (i - (len(agents) - 1) / 2) * width for j in range(len(labels))]
            ax.bar(xs, values, width, label=agent)
        ax.set_xticks(range(len(labels)), labels)
        ax.set_ylim(0, 100)
        ax.set_ylabel("%")
        ax.set_title(f"{mode} mode")
        ax.legend()
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
