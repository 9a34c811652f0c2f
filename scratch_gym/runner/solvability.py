"""Is a task solvable in a mode? Run the oracle in the real editor and check its episode.

``scratch-gym tasks check ID --primitive`` uses :func:`check_oracle`: the oracle must succeed, and
the task's step budget in that mode must leave room for it (at least ``BUDGET_FACTOR`` times the
oracle's steps). The oracle plays without the budget (it could not show how many steps it needs
otherwise); the budget is then compared with what it used.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from scratch_gym.records.status import SUCCESS

BUDGET_FACTOR = 1.25
UNBOUNDED_STEPS = 2000  # the oracle's own cap while it shows how many steps it needs


@dataclass(frozen=True)
class OracleCheck:
    """The oracle's episode on one task in one mode, and what it says about the task."""

    task: str
    mode: str
    status: str
    steps: int
    budget: int
    detail: str = ""

    @property
    def needed_budget(self) -> int:
        return math.ceil(BUDGET_FACTOR * self.steps)

    def problems(self) -> list[str]:
        out = []
        if self.status != SUCCESS:
            out.append(
                f"the {self.mode} oracle did not solve the task: {self.status}"
                + (f" ({self.detail})" if self.detail else "")
            )
        elif self.budget < self.needed_budget:
            out.append(
                f"the {self.mode} step budget {self.budget} is below {BUDGET_FACTOR}x the "
                f"oracle's {self.steps} steps (needs at least {self.needed_budget})"
            )
        return out

    @property
    def ok(self) -> bool:
        return not self.problems()

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "ok": self.ok, "problems": self.problems()}


def step_budget(task: Any, mode: str) -> int:
    """The step budget an environment of ``mode`` gives ``task`` (no page is opened)."""
    from scratch_gym.runner.jobs import EnvSpec

    env = EnvSpec().make(mode)
    try:
        return int(env.unwrapped.step_budget(task))
    finally:
        env.close()


def check_oracle(task: Any, mode: str = "primitive", seed: int = 0) -> OracleCheck:
    """Play the oracle on ``task`` in ``mode`` (real editor) and check success and budget."""
    from scratch_gym.agents.factory import make_agent
    from scratch_gym.runner.episode import run_with_retries
    from scratch_gym.runner.jobs import EnvSpec

    spec = EnvSpec(max_steps=UNBOUNDED_STEPS)
    agent = make_agent("oracle", mode)
    env = spec.make(mode)
    try:
        outcome, env = run_with_retries(lambda: spec.make(mode), env, agent, task, seed=seed)
    finally:
        env.close()
        agent.close()
    detail = outcome.get("unsupported") or outcome.get("ended_by") or outcome.get("error") or ""
    if outcome.get("agent_exception"):
        detail = outcome["agent_exception"].splitlines()[0]
    return OracleCheck(
        task=task.id,
        mode=mode,
        status=outcome["status"],
        steps=int(outcome.get("steps", 0)),
        budget=step_budget(task, mode),
        detail=str(detail),
    )
