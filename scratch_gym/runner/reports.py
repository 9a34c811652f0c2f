"""What ``scratch-gym eval`` prints: each suite's report table, and one JSON summary whose keys
are the same for every suite (``suite``, ``agent``, ``episodes``, ``success_rate``, ...) plus the
suite's own figures."""

from __future__ import annotations

from typing import Any

from scratch_gym.runner.tables import summary
from scratch_gym.suites import SUITES, Suite, TaskSuite, make_suite, suite_of_mode


def suite_name(record: dict[str, Any]) -> str:
    """The suite a record belongs to (records written before suites were recorded: by mode)."""
    return str(record.get("suite") or suite_of_mode(str(record.get("mode", ""))))


def reporter(name: str) -> Suite:
    """A suite instance that can print reports of ``name``'s records (options do not matter)."""
    if name in ("tasks", "scratchworld"):
        return TaskSuite()
    return make_suite(name)


def by_suite(records: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        groups.setdefault(suite_name(r), []).append(r)
    return {name: groups[name] for name in SUITES if name in groups}


def report_tables(records: list[dict[str, Any]]) -> str:
    """Every suite's table of ``records``, each under its suite's name."""
    groups = by_suite(records)
    if not groups:
        return "no episodes"
    parts = []
    for name, mine in groups.items():
        table = reporter(name).report(mine)
        parts.append(table if len(groups) == 1 else f"[{name}]\n{table}")
    return "\n\n".join(parts)


def summary_json(records: list[dict[str, Any]], suite: str | None = None) -> dict[str, Any]:
    """The JSON summary: common keys and the suite's own figures (those of ``suite``, or of the
    only suite in ``records``)."""
    groups = by_suite(records)
    name = suite or (next(iter(groups)) if len(groups) == 1 else None)
    mine = groups.get(name, []) if name else records
    s = summary(mine)
    agents = list(dict.fromkeys(r.get("agent", "") for r in mine))
    out: dict[str, Any] = {
        "suite": name if name else sorted(groups),
        "agent": agents[0] if len(agents) == 1 else agents,
        "episodes": s["episodes"],
        "success_rate": s["sr"],
        "sr": s["sr"],
        "psr": s["psr"],
        "agent_errors": s["agent_errors"],
        "infra": s["infra"],
    }
    if name:
        out.update(reporter(name).figures(mine))
    return out
