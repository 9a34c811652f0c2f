"""Result tables: the paper's Table 1, and the table of perception runs (single-drag runs are
tabled by their suite, :mod:`scratch_gym.suites.single_drag`).

Table 1: one block per mode, one row per agent, SR per category (Create, Debug, Extend, Compute),
overall SR and overall PSR. Rates average over every counted episode (all tasks x k runs): agent
errors count as non-successes (and are shown in ``agent errors``); infrastructure errors (including
an unreachable model API) are left out and counted in ``infra``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from scratch_gym.cli.output import table
from scratch_gym.runner.status import AGENT_ERROR, is_counted, status_of

CATEGORIES = ("create", "debug", "extend", "compute")
MODES = ("primitive", "composite")


def counted(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Episodes that count for the agent: success, failure and agent errors (not infrastructure
    errors); see :mod:`scratch_gym.runner.status`."""
    return [r for r in records if is_counted(r)]


def summary(records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Overall figures: sr, psr, episodes (counted), agent_errors (counted, as non-successes),
    infra (left out), per-category sr."""
    records = list(records)
    ok = counted(records)
    out: dict[str, Any] = {
        "episodes": len(ok),
        "agent_errors": sum(status_of(r) == AGENT_ERROR for r in ok),
        "infra": len(records) - len(ok),
        "sr": _mean(r.get("success", False) for r in ok),
        "psr": _mean(r.get("psr", 0.0) for r in ok),
    }
    by_cat: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in ok:
        by_cat[r.get("category", "")].append(r)
    out["categories"] = {
        c: {
            "sr": _mean(r.get("success", False) for r in rs),
            "psr": _mean(r.get("psr", 0.0) for r in rs),
            "n": len(rs),
        }
        for c, rs in sorted(by_cat.items())
    }
    return out


def table1(records: Iterable[dict[str, Any]]) -> str:
    """The Table 1 layout, one block per mode present in ``records``."""
    records = list(records)
    blocks = []
    modes = [m for m in MODES if any(r.get("mode") == m for r in records)]
    modes += sorted(
        {r.get("mode") for r in records}
        - set(MODES)
        - {None, "single_drag", "perception", "nl2scratch"}
    )
    for mode in modes:
        rows = []
        agents = _ordered(r["agent"] for r in records if r.get("mode") == mode)
        for agent in agents:
            mine = [r for r in records if r.get("mode") == mode and r["agent"] == agent]
            s = summary(mine)
            cats = [_pct(s["categories"].get(c, {}).get("sr")) for c in CATEGORIES]
            row = [agent, *cats, _pct(s["sr"]), _pct(s["psr"]), s["episodes"]]
            rows.append([*row, s["agent_errors"], s["infra"]])
        headers = [
            "agent",
            "Create",
            "Debug",
            "Extend",
            "Compute",
            "SR",
            "PSR",
            "episodes",
            "agent errors",
            "infra",
        ]
        blocks.append(f"{mode.capitalize()} mode (success rate %, PSR %)\n{table(headers, rows)}")
    return "\n\n".join(blocks)


PERCEPTION_KINDS = ("connection", "existence", "field")


def perception_table(records: Iterable[dict[str, Any]]) -> str:
    """Perception runs (records with mode ``perception``, ``question`` kind, ``correct``):
    accuracy for connection, existence, field and overall, per agent."""
    records = [r for r in records if r.get("mode") == "perception" and is_counted(r)]
    rows = []
    for agent in _ordered(r["agent"] for r in records):
        mine = [r for r in records if r["agent"] == agent]
        row: list[Any] = [agent]
        for kind in PERCEPTION_KINDS:
            row.append(_pct(_mean(r["correct"] for r in mine if r.get("question") == kind)))
        row += [_pct(_mean(r["correct"] for r in mine)), len(mine)]
        rows.append(row)
    return table(["agent", "connection", "existence", "field", "overall", "questions"], rows)


def _mean(values: Iterable[Any]) -> float | None:
    vals = [float(v) for v in values]
    return sum(vals) / len(vals) if vals else None


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def _ordered(names: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(names))
