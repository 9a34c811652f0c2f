"""The task suite (``tasks``) and ScratchWorld's own tasks (``scratchworld``): multi-step episodes in
primitive or composite mode, scored by unit tests (success: all pass; PSR: the share passed)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scratch_gym.suites.base import Suite

MODE_ENV_IDS = {
    "primitive": "ScratchWorld-Primitive-v0",
    "composite": "ScratchWorld-Composite-v0",
}


@dataclass(frozen=True)
class TaskSuite(Suite):
    """The shipped tasks (plus ``--tasks-dir`` folders), or with ``scratchworld`` the tasks of
    that ScratchWorld checkout paired with its ``*_golden.sb3`` projects."""

    scratchworld: str | None = None
    time: str | None = None  # ScratchWorld's scripts in "virtual" (default) or "real" time
    modes = ("primitive", "composite")

    def __post_init__(self) -> None:
        if self.time is not None and self.time not in ("virtual", "real"):
            raise ValueError(f"time must be 'virtual' or 'real', not {self.time!r}")
        if self.scratchworld:
            resolved = str(Path(self.scratchworld).expanduser().resolve())
            object.__setattr__(self, "scratchworld", resolved)

    @property
    def name(self) -> str:  # type: ignore[override]
        return "scratchworld" if self.scratchworld else "tasks"

    @property
    def source(self) -> str:
        return self.scratchworld or "built-in"

    def select(
        self, categories: Sequence[str] | None = None, task_ids: Sequence[str] | None = None
    ) -> list[Any]:
        from scratch_gym.tasks import list_tasks, load_task

        if self.scratchworld:
            from scratch_gym.tasks.scratchworld_golden import scratchworld_tasks

            time = self.time or "virtual"
            if task_ids:
                return scratchworld_tasks(self.scratchworld, names=list(task_ids), time=time)
            if not categories:
                return scratchworld_tasks(self.scratchworld, time=time)
            return [
                t for c in categories for t in scratchworld_tasks(self.scratchworld, c, time=time)
            ]
        if task_ids:
            return [load_task(t) for t in task_ids]
        if not categories:
            return list_tasks()
        return [t for c in categories for t in list_tasks(c)]

    def load(self, task_id: str) -> Any:
        if self.scratchworld:
            from scratch_gym.tasks.scratchworld_golden import scratchworld_tasks

            return scratchworld_tasks(
                self.scratchworld, names=[task_id], time=self.time or "virtual"
            )[0]
        from scratch_gym.tasks import load_task

        return load_task(task_id)

    def make_env(self, mode: str, env_spec: Any) -> Any:
        import gymnasium as gym

        import scratch_gym  # noqa: F401  (registers the ids)

        self.check_mode(mode)
        kwargs: dict[str, Any] = {
            "reward_mode": env_spec.reward_mode,
            "terminate_on_success": env_spec.terminate_on_success,
            "render_mode": "rgb_array",
        }
        if env_spec.max_steps:
            kwargs["max_steps"] = env_spec.max_steps
        return gym.make(MODE_ENV_IDS[mode], **kwargs)

    def report(self, records: list[dict[str, Any]]) -> str:
        from scratch_gym.runner.tables import table1

        return table1(records)

    def figures(self, records: list[dict[str, Any]]) -> dict[str, Any]:
        from scratch_gym.runner.tables import summary

        s = summary(records)
        return {"sr": s["sr"], "psr": s["psr"], "categories": s["categories"]}
