"""The adversarial check of a task: do its tests tell right from wrong?

For one task: the golden project passes every test; the starting project fails at least one;
every negative solution fails at least one; and for each block the golden project adds or
changes (see :mod:`~scratch_gym.tasks.blockdiff`), the golden project without that block fails at
least one test, unless the task lists the block as behaviour-neutral with a reason. Removal
variants stop at their first failed test: one failure is all the check needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scratch_gym.editor.page import EditorPage
from scratch_gym.tasks.blockdiff import Unit, changed_units, remove_unit
from scratch_gym.tasks.evaluator import EvaluationResult, Evaluator
from scratch_gym.tasks.projects import load_project, project_json, with_json
from scratch_gym.tasks.schema import NeutralBlock, Task


@dataclass(frozen=True)
class Check:
    """One project of the check: what it must do (``pass_all`` or ``fail_one``) and what it did."""

    kind: str  # golden, start, negative, removal
    label: str
    expect: str  # pass_all or fail_one
    result: EvaluationResult | None
    neutral_reason: str = ""

    @property
    def ok(self) -> bool:
        if self.result is None:  # a neutral block: not evaluated
            return True
        if self.expect == "pass_all":
            return self.result.success
        return not self.result.success

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "label": self.label,
            "expect": self.expect,
            "ok": self.ok,
        }
        if self.result is not None:
            out["psr"] = self.result.psr
            out["failed"] = [t.name for t in self.result.failed()]
            if self.result.stopped_early:
                out["stopped_at_first_failure"] = True
        if self.neutral_reason:
            out["neutral"] = self.neutral_reason
        return out


@dataclass
class Report:
    task: str
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    def problems(self) -> list[str]:
        out = []
        for c in self.checks:
            if c.ok:
                continue
            if c.expect == "pass_all":
                failed = c.result.failed() if c.result else []
                why = "; ".join(f"{t.name}: {t.message}" for t in failed)
                out.append(f"{c.label} must pass every test but failed: {why}")
            else:
                out.append(f"{c.label} must fail at least one test but passed all")
        return out

    def to_json(self) -> dict[str, Any]:
        return {"task": self.task, "ok": self.ok, "checks": [c.to_json() for c in self.checks]}


def neutral_for(task: Task, unit: Unit, units: list[Unit]) -> NeutralBlock | None:
    """The task's neutral entry that covers ``unit`` (by opcode, sprite and index among matches)."""
    for entry in task.neutral:
        if entry.opcode != unit.opcode or entry.sprite not in (None, unit.target):
            continue
        matches = [
            u for u in units if u.opcode == entry.opcode and entry.sprite in (None, u.target)
        ]
        if entry.index is None or (entry.index < len(matches) and matches[entry.index] == unit):
            return entry
    return None


def removal_variants(task: Task) -> list[tuple[Unit, dict[str, Any]]]:
    """(unit, golden project.json without it) for each block the golden adds or changes."""
    if task.start is None or task.golden is None:
        return []
    golden = project_json(task.golden)
    changed = changed_units(project_json(task.start), golden)
    return [(u, remove_unit(golden, u)) for u in changed]


def check_task(page: EditorPage, task: Task, evaluator: Evaluator | None = None) -> Report:
    """Run the whole adversarial check of ``task`` in ``page`` (the editor is not touched)."""
    if task.golden is None or task.start is None:
        raise ValueError(f"task {task.id} has no golden or starting project to check")
    ev = evaluator or Evaluator(page, task)
    report = Report(task.id)
    golden = load_project(task.golden)
    report.checks.append(Check("golden", "golden project", "pass_all", ev.evaluate(golden)))
    start = load_project(task.start)
    report.checks.append(Check("start", "starting project", "fail_one", ev.evaluate(start)))
    for neg in task.negatives:
        label = f"negative {neg.project.name} ({neg.why})"
        report.checks.append(
            Check("negative", label, "fail_one", ev.evaluate(load_project(neg.project)))
        )
    variants = removal_variants(task)
    units = [u for u, _p in variants]
    for unit, variant in variants:
        label = f"golden without {unit.describe()}"
        entry = neutral_for(task, unit, units)
        if entry is not None:
            report.checks.append(Check("removal", label, "fail_one", None, entry.reason))
            continue
        result = ev.evaluate(with_json(golden, variant), until_failure=True)
        report.checks.append(Check("removal", label, "fail_one", result))
    return report
