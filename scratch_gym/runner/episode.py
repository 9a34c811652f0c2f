"""One episode of an agent on a task: the Gymnasium loop, infrastructure errors, the record.

The record's ``status`` (vocabulary in :mod:`scratch_gym.records.status`): ``success``;
``failure`` (the agent answered ``done``/``failed`` without success, or the budget ran out:
``ended_by``); ``agent_error`` (the agent raised, or could not plan the task: ``unsupported``);
``infrastructure_error``. An episode whose page or browser died (``info["infrastructure_error"]``,
or the environment raising on reset) is retried on a recovered environment and recorded as an
infrastructure error when retries run out; so is an agent whose model API failed
(:class:`AgentError`). Infrastructure errors count as failures in the tables (shown as ``infra``)
and are redone on resume.

A step whose model reply held no action (``agent.info["parse_error"]``) is counted in the record's
``parse_failures`` (not in ``action_errors``), and kept with its raw reply in ``parse_errors``.
Fields an agent puts under ``agent.info["record"]`` (e.g. the NL2Scratch writer's sampled
``candidates``) go into the record as they are (the last step's; they do not replace the
outcome's own fields).
"""

from __future__ import annotations

import time
import traceback
import zlib
from collections.abc import Callable
from typing import Any

from scratch_gym.agents.base import Agent, AgentError
from scratch_gym.records.status import AGENT_ERROR, FAILURE, INFRASTRUCTURE_ERROR, SUCCESS
from scratch_gym.runner.observation_stats import ObservationTally
from scratch_gym.runner.recording import Recorder

INFRA_RETRIES = 2
MAX_PARSE_ERRORS = 20  # unparsed replies kept in a record (all are counted)
MAX_REPLY_CHARS = 4000
Judge = Callable[[Any, dict[str, Any], Any], dict[str, Any]]


class InfrastructureError(RuntimeError):
    """The environment failed for reasons outside the agent (the page or browser died)."""


def agent_seed(seed: int, task: Any) -> int:
    """The agent's seed for an episode of ``task``: ``seed`` mixed with the task's id (stable
    across processes)."""
    return (seed * 1_000_003 + zlib.crc32(str(getattr(task, "id", "")).encode("utf-8"))) % 2**32


def run_episode(
    env: Any,
    agent: Agent,
    task: Any,
    *,
    seed: int = 0,
    record_dir: str | None = None,
    on_step: Callable[[int, Any, float, dict[str, Any]], None] | None = None,
    judge: Judge | None = None,
) -> dict[str, Any]:
    """Play one episode of ``task`` (set up by ``task.reset_options()``); returns the outcome
    fields of a result record (with its ``status``). ``judge(task, info, action)`` (the suite's)
    adds its record fields and may set ``success`` and ``psr`` from the last ``info``.

    The environment is reset with ``seed``; the agent is seeded with ``agent_seed(seed, task)``,
    so a random agent draws anew on each task of a run (one seed for all would give every task
    the same draws) and the same again when the run is repeated.

    Raises InfrastructureError when the environment failed (callers retry)."""
    t0 = time.perf_counter()
    agent.bind(env)
    agent.seed(agent_seed(seed, task))
    try:
        obs, info = env.reset(seed=seed, options=task.reset_options())
    except Exception as exc:  # noqa: BLE001 - a dead browser surfaces as many exception types
        raise InfrastructureError(f"reset failed: {type(exc).__name__}: {exc}") from exc
    try:
        agent.reset(task)
    except AgentError as exc:
        return _api_error(exc, 0, t0)
    except Exception as exc:  # noqa: BLE001 - e.g. an oracle given a task without a golden
        return {
            "status": AGENT_ERROR,
            "ended_by": "exception",
            "success": False,
            "psr": float(info.get("initial_psr", info.get("psr", 0.0)) or 0.0),
            "steps": 0,
            "agent_exception": f"reset: {type(exc).__name__}: {exc}",
            "wall_s": time.perf_counter() - t0,
        }
    recorder = Recorder(record_dir, title=f"{agent.name} on {task.id}") if record_dir else None
    tally = ObservationTally()
    tally.add(info)
    initial_psr = float(info.get("initial_psr", info.get("psr", 0.0)) or 0.0)
    total = 0.0
    steps = 0
    terminated = truncated = False
    usage: dict[str, int] = {}
    action_errors = 0
    parse_errors: list[dict[str, Any]] = []  # steps whose reply held no action (LLM agents)
    action: Any = None
    agent_exception = ""
    unsupported = ""
    agent_fields: dict[str, Any] = {}
    while not (terminated or truncated):
        try:
            action = agent.act(obs, info)
        except AgentError as exc:
            return _api_error(exc, steps, t0)
        except Exception as exc:  # noqa: BLE001 - an agent bug is that agent's failure
            if _page_died(env):  # privileged agents read the page, and saw it die
                raise InfrastructureError(f"the page died while the agent acted: {exc}") from exc
            agent_exception = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=3)}"
            break
        unsupported = unsupported or str(agent.info.get("unsupported") or "")
        parse_error = str(agent.info.get("parse_error") or "")
        agent_fields.update(agent.info.get("record") or {})
        if recorder is not None:
            recorder.step(_frame(env, obs), action, agent.info)
        obs, reward, terminated, truncated, info = env.step(action)
        steps += 1
        total += float(reward)
        tally.add(info)
        if recorder is not None:
            recorder.result(reward, info)
        if on_step is not None:
            on_step(steps, action, float(reward), info)
        if info.get("infrastructure_error"):
            raise InfrastructureError(str(info["infrastructure_error"]))
        if parse_error:  # the step's one error: its reply, not the placeholder the env refused
            parse_errors.append(
                {
                    "step": steps,
                    "error": parse_error,
                    "reply": str(agent.info.get("reply", ""))[:MAX_REPLY_CHARS],
                }
            )
        elif info.get("last_action_error"):
            action_errors += 1
        for k, v in (agent.info.get("usage") or {}).items():
            usage[k] = usage.get(k, 0) + int(v)
    judged = judge(task, info, action) if judge is not None and steps else {}
    psr = float(judged.pop("psr", info.get("psr", initial_psr)) or 0.0)
    success = bool(judged.pop("success", info.get("success", False))) and not agent_exception
    ended_by = _ended_by(info, terminated, truncated, success, agent_exception)
    outcome = {
        "status": _status(success, agent_exception, unsupported),
        "ended_by": ended_by,
        "success": success,
        "psr": psr,
        "initial_psr": initial_psr,
        "return": total,
        "steps": steps,
        "terminated": terminated,
        "truncated": truncated,
        "action_errors": action_errors,
        "tests": [{"name": t["name"], "passed": t["passed"]} for t in info.get("tests", [])],
        "usage": usage,
        "wall_s": time.perf_counter() - t0,
        **tally.fields(),
        **judged,
    }
    outcome = {**agent_fields, **outcome}
    if parse_errors:
        outcome["parse_failures"] = len(parse_errors)
        outcome["parse_errors"] = parse_errors[:MAX_PARSE_ERRORS]
    if agent_exception:
        outcome["agent_exception"] = agent_exception
    if unsupported:
        outcome["unsupported"] = unsupported
    if recorder is not None:
        verdict = "success" if success else "failure"
        recorder.finish(_frame(env, obs), f"{verdict}, psr {psr:.2f}, return {total:+.2f}")
        outcome["recording"] = str(recorder.folder)
    return outcome


def run_with_retries(
    make_env: Callable[[], Any],
    env: Any,
    agent: Agent,
    task: Any,
    retries: int = INFRA_RETRIES,
    **kwargs: Any,
) -> tuple[dict[str, Any], Any]:
    """``run_episode`` retrying infrastructure errors (on a new environment after the second
    failure); returns (outcome, the environment to keep using)."""
    last = ""
    for attempt in range(retries + 1):
        try:
            outcome = run_episode(env, agent, task, **kwargs)
            outcome["infra_retries"] = attempt
            return outcome, env
        except InfrastructureError as exc:
            last = str(exc)
            if attempt >= 1:
                try:
                    env.close()
                except Exception:  # noqa: BLE001 - the old environment is already broken
                    pass
                env = make_env()
    return {"status": INFRASTRUCTURE_ERROR, "error": last, "infra_retries": retries}, env


def _status(success: bool, agent_exception: str, unsupported: str) -> str:
    if agent_exception or unsupported:
        return AGENT_ERROR
    return SUCCESS if success else FAILURE


def _ended_by(
    info: dict[str, Any], terminated: bool, truncated: bool, success: bool, agent_exception: str
) -> str:
    """What ended the episode: done, failed, budget, success (terminate_on_success), exception."""
    if agent_exception:
        return "exception"
    if truncated:
        return "budget"
    executed_action = info.get("executed_action") or {}
    executed = executed_action.get("action_type", executed_action.get("type"))
    if terminated and executed in ("done", "failed"):
        return str(executed)
    return "success" if success else "terminated"


def _api_error(exc: Exception, steps: int, t0: float) -> dict[str, Any]:
    """The agent's model API failed: outside the agent's policy, so an infrastructure error."""
    return {
        "status": INFRASTRUCTURE_ERROR,
        "infrastructure": "agent_api",
        "error": str(exc),
        "steps": steps,
        "wall_s": time.perf_counter() - t0,
    }


def _page_died(env: Any) -> bool:
    """Whether the environment's editor page is gone (asked through its privileged channel)."""
    channel = getattr(getattr(env, "unwrapped", env), "privileged", None)
    return channel is not None and channel().died


def _frame(env: Any, obs: Any) -> Any:
    if isinstance(obs, dict) and "screenshot" in obs:
        return obs["screenshot"]
    return env.render()
