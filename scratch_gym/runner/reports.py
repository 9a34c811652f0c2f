"""What ``scratch-gym eval`` prints: each suite's report table, and one JSON summary whose keys
are the same for every suite (``suite``, ``agent``, ``episodes``, ``success_rate``, ...) plus the
suite's own figures."""

from __future__ import annotations

from typing import Any

from scratch_gym.records.status import AGENT_ERROR, INFRASTRUCTURE_ERROR, status_of
from scratch_gym.suites import SUITES, Suite, TaskSuite, make_suite, suite_of_mode
from scratch_gym.suites.tasks import summary


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


ERROR_KINDS = {AGENT_ERROR: "agent errors", INFRASTRUCTURE_ERROR: "infrastructure errors"}
MESSAGE_CHARS = 300


def first_line(text: Any) -> str:
    """The first line of a message (an agent exception's traceback follows it), shortened."""
    line = next((t.strip() for t in str(text or "").splitlines() if t.strip()), "")
    return line if len(line) <= MESSAGE_CHARS else line[: MESSAGE_CHARS - 3] + "..."


def error_message(record: dict[str, Any]) -> str:
    """Why an episode ended in an error: its ``error``, ``agent_exception`` or ``unsupported``."""
    for key in ("error", "agent_exception", "unsupported"):
        if record.get(key):
            return first_line(record[key])
    return "(no message recorded)"


def error_summary(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Per error kind (``agent_error``, ``infrastructure_error``): how many episodes, and the
    first one's task and message; per agent, the replies that could not be parsed
    (``parse_failures``: steps, episodes, the first error)."""
    out: dict[str, Any] = {}
    for status in ERROR_KINDS:
        mine = [r for r in records if status_of(r) == status]
        if mine:
            out[status] = {
                "count": len(mine),
                "task": mine[0].get("task", ""),
                "first": error_message(mine[0]),
            }
    parse: dict[str, dict[str, Any]] = {}
    for r in records:
        if not r.get("parse_failures"):
            continue
        agent = parse.setdefault(str(r.get("agent", "")), {"steps": 0, "episodes": 0, "first": ""})
        agent["steps"] += int(r["parse_failures"])
        agent["episodes"] += 1
        errors = r.get("parse_errors") or [{}]
        agent["first"] = agent["first"] or first_line(errors[0].get("error", ""))
    if parse:
        out["parse_failures"] = parse
    return out


def failure_lines(records: list[dict[str, Any]]) -> list[str]:
    """What goes under the tables: each error kind with its count and first message, and each
    agent's unparsed replies."""
    errors = error_summary(records)
    lines = []
    for status, label in ERROR_KINDS.items():
        if status in errors:
            e = errors[status]
            lines.append(
                f"{label}: {e['count']} of {len(records)} episodes; first ({e['task']}): "
                f"{e['first']}"
            )
    for agent, p in errors.get("parse_failures", {}).items():
        lines.append(
            f"parse failures ({agent}): {p['steps']} replies in {p['episodes']} episodes could "
            f"not be parsed; first: {p['first']}"
        )
    return lines


def all_infrastructure(records: list[dict[str, Any]]) -> bool:
    """Whether there were episodes and every one failed for infrastructure reasons."""
    return bool(records) and all(status_of(r) == INFRASTRUCTURE_ERROR for r in records)


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
    errors = error_summary(mine)
    out["errors"] = {k: v for k, v in errors.items() if k in ERROR_KINDS}
    out["parse_failures"] = {
        agent: p["steps"] for agent, p in errors.get("parse_failures", {}).items()
    }
    if name:  # the suite's own figures; the common keys above (over every record) stay
        out = {**reporter(name).figures(mine), **out}
    return out
