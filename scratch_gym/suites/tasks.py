"""The task suite (``tasks``) and ScratchWorld's own tasks (``scratchworld``): multi-step episodes in
primitive or composite mode, scored by unit tests (success: all pass; PSR: the share passed).

Reported as the paper's Table 1 (:func:`table1`): one block per mode, one row per agent, SR per
category (Create, Debug, Extend, Compute), overall SR and overall PSR. As in the paper, the
denominator is every selected task x k runs (``episodes``): agent errors count as non-successes
(and are shown in ``agent errors``); so do infrastructure errors (including an unreachable model
API), with a PSR of 0 unless the record holds a measured one, and they are shown in ``infra``
beside the rates. ``--resume`` reruns the infrastructure errors (and only those), after which
the rates count their new outcomes.

In primitive mode, ``observation`` picks a setting of the paper's observation ablation
(:mod:`scratch_gym.observations.settings`); every record names its ``observation``, and the table
has one block per mode and observation, with the element list's mean size and the OCR time per
step where they were measured.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scratch_gym.observations.settings import (
    DEFAULT_SETTING,
    OBSERVATION_SETTINGS,
    observation_setting,
)
from scratch_gym.records.status import AGENT_ERROR, is_counted, status_of
from scratch_gym.records.text import table
from scratch_gym.suites.base import Suite, select_among

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
    observation: str | None = None  # primitive mode's setting (default screen_elements)
    modes = ("primitive", "composite")

    def __post_init__(self) -> None:
        if self.time is not None and self.time not in ("virtual", "real"):
            raise ValueError(f"time must be 'virtual' or 'real', not {self.time!r}")
        if self.observation is not None:  # a preset is stored as the setting it names
            setting = observation_setting(self.observation)
            object.__setattr__(self, "observation", setting.name)
            check_ocr_installed(setting.defaults.get("ocr"), setting.name)
        if self.scratchworld:
            resolved = str(Path(self.scratchworld).expanduser().resolve())
            object.__setattr__(self, "scratchworld", resolved)

    @property
    def name(self) -> str:  # type: ignore[override]
        return "scratchworld" if self.scratchworld else "tasks"

    @property
    def source(self) -> str:
        return self.scratchworld or "built-in"

    @property
    def variant(self) -> str:
        """The observation setting, where it is not the default (results keys stay as before)."""
        return "" if self.observation in (None, DEFAULT_SETTING) else str(self.observation)

    def check_mode(self, mode: str) -> None:
        super().check_mode(mode)
        if self.observation is not None and mode != "primitive":
            raise ValueError(
                f"the observation setting {self.observation!r} is for primitive mode; "
                f"{mode} mode observes the program as text"
            )

    def observation_of(self, mode: str) -> str:
        """What agents in ``mode`` observe: the setting's name, or ``pseudocode``."""
        return (self.observation or DEFAULT_SETTING) if mode == "primitive" else "pseudocode"

    def record_fields(self, mode: str) -> dict[str, Any]:
        return {"observation": self.observation_of(mode)}

    def select(
        self, categories: Sequence[str] | None = None, task_ids: Sequence[str] | None = None
    ) -> list[Any]:
        if self.scratchworld:
            from scratch_gym.scratchworld.checkout import ID_PREFIX
            from scratch_gym.scratchworld.tasks import scratchworld_tasks

            tasks = scratchworld_tasks(self.scratchworld, time=self.time or "virtual")
            return select_among(tasks, categories, task_ids, id_prefix=ID_PREFIX)
        from scratch_gym.tasks import list_tasks

        return select_among(list_tasks(), categories, task_ids)

    def load(self, task_id: str) -> Any:
        if self.scratchworld:
            from scratch_gym.scratchworld.tasks import scratchworld_tasks

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
        if self.observation is not None:
            kwargs["observation"] = self.observation
        return gym.make(MODE_ENV_IDS[mode], **kwargs)

    def report(self, records: list[dict[str, Any]]) -> str:
        return table1(records)

    def figures(self, records: list[dict[str, Any]]) -> dict[str, Any]:
        s = summary(records)
        observations = _ordered(str(r["observation"]) for r in records if r.get("observation"))
        return {
            "sr": s["sr"],
            "psr": s["psr"],
            "categories": s["categories"],
            "observation": observations[0] if len(observations) == 1 else observations,
            **{k: s[k] for k in OBSERVATION_FIGURES},
        }


def check_ocr_installed(engine: str | None, setting: str) -> None:
    """ValueError naming what to install when ``setting`` needs an OCR engine that is missing
    (before any browser starts, not in every episode)."""
    from scratch_gym.ocr import missing_packages

    missing = missing_packages(engine) if engine else []
    if missing:
        raise ValueError(
            f"the observation setting {setting!r} needs the ocr extra (missing "
            f"{', '.join(missing)}): pip install 'scratch-gym[ocr]'"
        )


CATEGORIES = ("create", "debug", "extend", "compute")
TABLE1_MODES = ("primitive", "composite")  # the paper's order; other modes follow
# per-step means of the records (runner.observation_stats), with their column names
OBSERVATION_FIGURES = {
    "elements_per_step": "elements/step",
    "ocr_texts_per_step": "OCR texts/step",
    "ocr_ms_per_step": "OCR ms/step",
}


def counted(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Episodes that count for the agent: success, failure and agent errors (not infrastructure
    errors); see :mod:`scratch_gym.records.status`."""
    return [r for r in records if is_counted(r)]


def _success(record: dict[str, Any]) -> bool:
    """A record's success in the rates: an infrastructure error is a failure."""
    return is_counted(record) and bool(record.get("success", False))


def _psr(record: dict[str, Any]) -> float:
    """A record's PSR in the rates: 0 for an infrastructure error without a measured PSR."""
    return float(record.get("psr") or 0.0)


def summary(records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Overall figures over every episode (the paper's denominator: all selected tasks x runs):
    sr, psr, episodes, agent_errors and infra (both counted as non-successes), per-category sr
    and psr."""
    records = list(records)
    ok = counted(records)
    out: dict[str, Any] = {
        "episodes": len(records),
        "agent_errors": sum(status_of(r) == AGENT_ERROR for r in ok),
        "infra": len(records) - len(ok),
        "sr": _mean(_success(r) for r in records),
        "psr": _mean(_psr(r) for r in records),
    }
    by_cat: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        by_cat[r.get("category", "")].append(r)
    out["categories"] = {
        c: {
            "sr": _mean(_success(r) for r in rs),
            "psr": _mean(_psr(r) for r in rs),
            "n": len(rs),
        }
        for c, rs in sorted(by_cat.items())
    }
    for key in OBSERVATION_FIGURES:  # over the episodes that measured them
        out[key] = _mean(r[key] for r in records if r.get(key) is not None)
    return out


def table1(records: Iterable[dict[str, Any]]) -> str:
    """The Table 1 layout, one block per mode (and observation setting) present in ``records``."""
    records = list(records)
    blocks = []
    modes = [m for m in TABLE1_MODES if any(r.get("mode") == m for r in records)]
    modes += sorted(
        {r.get("mode") for r in records}
        - set(TABLE1_MODES)
        - {None, "single_drag", "perception", "nl2scratch"}
    )
    for mode in modes:
        in_mode = [r for r in records if r.get("mode") == mode]
        for observation in _ordered(r.get("observation") for r in in_mode):
            mine = [r for r in in_mode if r.get("observation") == observation]
            blocks.append(_block(mode, observation, mine))
    return "\n\n".join(blocks)


def observation_title(mode: str, observation: str | None) -> str:
    """How a block's title names what the agents observed."""
    if observation in OBSERVATION_SETTINGS:
        return f", observation {observation}: {OBSERVATION_SETTINGS[observation].summary}"
    if observation is None:
        return ", observation not recorded" if mode == "primitive" else ""
    return f", observation {observation}"


def _block(mode: str, observation: str | None, records: list[dict[str, Any]]) -> str:
    """One mode's (and observation's) rows, one per agent."""
    measured = [k for k in OBSERVATION_FIGURES if any(r.get(k) is not None for r in records)]
    rows = []
    for agent in _ordered(r["agent"] for r in records):
        s = summary(r for r in records if r["agent"] == agent)
        cats = [_pct(s["categories"].get(c, {}).get("sr")) for c in CATEGORIES]
        row = [agent, *cats, _pct(s["sr"]), _pct(s["psr"]), s["episodes"]]
        row += [s["agent_errors"], s["infra"]]
        rows.append(row + [_num(s[k]) for k in measured])
    headers = ["agent", "Create", "Debug", "Extend", "Compute", "SR", "PSR", "episodes"]
    headers += ["agent errors", "infra", *(OBSERVATION_FIGURES[k] for k in measured)]
    return (
        f"{mode.capitalize()} mode{observation_title(mode, observation)} (success rate %, "
        "PSR %; over all episodes: agent and infrastructure errors count as failures)\n"
        f"{table(headers, rows)}"
    )


def _mean(values: Iterable[Any]) -> float | None:
    vals = [float(v) for v in values]
    return sum(vals) / len(vals) if vals else None


def _pct(value: float | None) -> str:
    """A share as a percentage; '-' where there is none (no episodes, or an older record's NaN)."""
    return "-" if value is None or value != value else f"{100 * value:.1f}"


def _num(value: float | None) -> str:
    """A per-step mean with one decimal; '-' where none was measured."""
    return "-" if value is None or value != value else f"{value:.1f}"


def _ordered(names: Iterable[Any]) -> list[Any]:
    return list(dict.fromkeys(names))
