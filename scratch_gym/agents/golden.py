"""What both oracles share: the task's golden solution as project.json, the plan they replay one
action per ``act``, and the error an oracle raises when it cannot plan."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from scratch_gym.agents.base import Agent
from scratch_gym.agents.composite_plan import TreeReader, missing_data, same_scripts
from scratch_gym.program.projects import empty_project
from scratch_gym.program.projects import project_json as read_project_json


class Unsupported(ValueError):
    """The golden solution needs something the oracle cannot do (e.g. a new sprite)."""


def project_json(data: dict | bytes | None) -> dict[str, Any]:
    """project.json of project data (a dict, or .sb3 bytes); the empty project for None."""
    return empty_project() if data is None else read_project_json(data)


class GoldenOracle(Agent):
    """Replays a plan that turns the live program into the golden one of the task given to
    ``reset`` (subclasses make the plan in their mode, ``_plan``, and read the editor through the
    env's privileged channel, ``bind``). ``info`` reports ``unsupported`` (why the oracle gave up)
    and ``differs_from_golden`` (targets that still differ when it answers ``done``)."""

    name = "oracle"
    DONE: Any = None  # the mode's "done" and "failed" actions
    FAILED: Any = None
    # raised when the env reports that the oracle's last action failed
    ActionFailed: type[Exception] = RuntimeError

    def __init__(self) -> None:
        super().__init__()
        self.golden: dict[str, Any] | None = None
        self.unsupported = ""
        self.mismatch: list[str] = []
        self._actions: Iterator[Any] | None = None

    def reset(self, task: Any = None) -> None:
        super().reset(task)
        if task is None or getattr(task, "golden", None) is None:
            raise ValueError("the oracle needs a task with a golden solution")
        from scratch_gym.tasks.projects import load_project

        self.golden = project_json(load_project(task.golden))
        self.unsupported = ""
        self.mismatch = []
        self._actions = self._plan()

    def act(self, observation: Any, info: dict[str, Any]) -> Any:
        if self._actions is None:
            raise RuntimeError("call reset(task) before act()")
        error = observation.get("last_action_error") if isinstance(observation, dict) else ""
        if error:
            raise self.ActionFailed(f"the oracle's last action failed: {error}")
        try:
            action = next(self._actions, None)
        except Unsupported as exc:
            self.unsupported = str(exc)
            self._actions = iter(())
            action = copy.deepcopy(self.FAILED)
        if action is None:
            action = copy.deepcopy(self.DONE)
        self.info = {"unsupported": self.unsupported} if self.unsupported else {}
        if self.mismatch:
            self.info["differs_from_golden"] = list(self.mismatch)
        return action

    def _plan(self) -> Iterator[Any]:
        raise NotImplementedError

    def _live_project(self) -> dict[str, Any]:
        """The editor's project.json now (through the privileged channel)."""
        raise NotImplementedError

    def _targets_to_edit(self) -> Iterator[tuple[dict[str, Any], list[tuple[str, str]], Any]]:
        """The golden's targets (stage first) whose scripts, variables or lists differ from the
        live ones: (target, the data to make, the scripts wanted). Unsupported when the golden
        adds a target."""
        assert self.golden is not None
        live = {t["name"]: t for t in self._live_project()["targets"]}
        golden = sorted(self.golden["targets"], key=lambda t: not t.get("isStage"))
        for target in golden:
            if target["name"] not in live:
                raise Unsupported(f"the golden adds the target {target['name']!r}")
        stage = next((t for t in live.values() if t.get("isStage")), None)
        for target in golden:
            have = live[target["name"]]
            missing = missing_data(target, have, stage)
            want = TreeReader(target.get("blocks") or {}, vm=False).scripts()
            now = TreeReader(have.get("blocks") or {}, vm=False).scripts()
            if missing or not same_scripts(want, now):
                yield target, missing, want

    def _differences(self) -> list[str]:
        """Targets whose live scripts still differ from the golden's (an oracle bug if any)."""
        assert self.golden is not None
        live = {t["name"]: t for t in self._live_project()["targets"]}
        return [
            t["name"]
            for t in self.golden["targets"]
            if not same_scripts(
                TreeReader(t.get("blocks") or {}, vm=False).scripts(),
                TreeReader(live[t["name"]].get("blocks") or {}, vm=False).scripts(),
            )
        ]
