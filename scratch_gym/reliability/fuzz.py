"""Fuzzing the agent-facing action spaces with random and adversarial actions.

Every generated action is stepped in a real environment. The invariants checked per action:
the step returns (no exception, no hang past the time limit); an invalid action yields a specific,
non-empty error and leaves the project and the editor view unchanged; nothing the agent sends is
evaluated as code in the page (canary strings would set ``window.__scratch_gym_pwned``).
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym

from scratch_gym.actions.primitive import ACTION_NAMES

CANARY_FLAG = "__scratch_gym_pwned"
CODE_LIKE = (
    f"'); window.{CANARY_FLAG} = 1; //",
    f'"); window.{CANARY_FLAG} = 1; //',
    f"${{window.{CANARY_FLAG} = 1}}",
    f"</script><script>window.{CANARY_FLAG}=1</script>",
    f"javascript:window.{CANARY_FLAG}=1",
    f"`+(window.{CANARY_FLAG}=1)+`",
)
ODD_TEXT = (
    "",
    " ",
    "Hello 🐱 — 猫",
    "\u202e\u200b\u0000",
    "x" * 20_000,
    "line1\nline2\ttab",
    "null",
    "[]",
    "{}",
)
ODD_NUMBERS = (
    math.nan,
    math.inf,
    -math.inf,
    -1.0,
    1e308,
    -1e308,
    0.0,
    10_000.0,
    -10_000.0,
    3.5,
)


@dataclass
class FuzzReport:
    """What a fuzz run found."""

    actions: int = 0
    invalid: int = 0
    crashes: list[str] = field(default_factory=list)
    missing_errors: list[str] = field(default_factory=list)
    state_changed_by_invalid: list[str] = field(default_factory=list)
    #: invalid actions whose "state unchanged" check was skipped: scripts were running (the
    #: agent's project changes the sprites by itself then)
    unchecked_while_running: int = 0
    code_executed: bool = False
    slowest_step_s: float = 0.0
    hangs: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (
            self.crashes
            or self.missing_errors
            or self.state_changed_by_invalid
            or self.code_executed
            or self.hangs
        )

    def summary(self) -> dict[str, Any]:
        return {
            "actions": self.actions,
            "invalid": self.invalid,
            "crashes": len(self.crashes),
            "missing_errors": len(self.missing_errors),
            "state_changed_by_invalid": len(self.state_changed_by_invalid),
            "unchecked_while_running": self.unchecked_while_running,
            "code_executed": self.code_executed,
            "hangs": len(self.hangs),
            "slowest_step_s": round(self.slowest_step_s, 3),
        }


def _number(rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.5:
        return rng.uniform(-100, 1400)
    if roll < 0.8:
        return rng.choice(ODD_NUMBERS)
    return rng.choice(["12", None, [], {}, True, "NaN"])


def _point(rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.8:
        return [_number(rng), _number(rng)]
    return rng.choice([[1], [1, 2, 3], "10,10", None, {"x": 1, "y": 2}, [[1, 2]]])


def _text(rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.4:
        return rng.choice(CODE_LIKE)
    if roll < 0.9:
        return rng.choice(ODD_TEXT)
    return rng.choice([12, None, ["a"], {"t": 1}])


def primitive_actions(rng: random.Random) -> Iterator[Any]:
    """Random and adversarial actions for the primitive Dict action space."""
    fields = ("start", "end", "text", "keys", "scroll")
    while True:
        roll = rng.random()
        if roll < 0.05:
            yield rng.choice(["drag", 7, None, [1, 2], json.dumps({"action_type": "click"})])
            continue
        action: dict[str, Any] = {}
        kind_roll = rng.random()
        if kind_roll < 0.6:
            action["action_type"] = rng.choice(ACTION_NAMES[:7])
        elif kind_roll < 0.8:
            action["action_type"] = rng.randrange(-3, len(ACTION_NAMES) + 3)
        else:
            action["action_type"] = rng.choice(
                ["teleport", "", "DRAG", None, 2.5, True, CODE_LIKE[0]]
            )
        for name in fields:
            if rng.random() < 0.7:
                if name in ("start", "end"):
                    action[name] = _point(rng)
                elif name == "scroll":
                    action[name] = [_number(rng), _number(rng)] if rng.random() < 0.8 else "up"
                elif name == "keys":
                    action[name] = rng.choice(
                        ["Escape", "Control+a", "Hyper", "++", "F13", "", "Shift+Tab", 5]
                    )
                else:
                    action[name] = _text(rng)
        yield action


def _composite_value(rng: random.Random, kind: str, opcodes: list[str]) -> Any:
    roll = rng.random()
    if kind == "index":
        if roll < 0.7:
            return rng.randint(1, 12)
        return rng.choice([0, -1, 10_000, "3", "#2", 2.0, 2.5, True, None, "x", [1]])
    if kind == "opcode":
        if roll < 0.75:
            return rng.choice(opcodes)
        return rng.choice(["motion_teleport", "", "MOTION_MOVESTEPS", 5, CODE_LIKE[2]])
    if kind == "flag":
        return rng.choice([True, False, "true", "maybe", 1, None])
    if kind == "names":
        if roll < 0.7:
            return rng.sample(["a", "b", "size", "x"], rng.randint(0, 3))
        return rng.choice(["a", [""], [1], ["x"] * 100, None])
    if kind == "value":
        if roll < 0.5:
            return rng.choice([10, -3.5, "hello", "", "0"])
        return rng.choice([_number(rng), _text(rng)])
    if roll < 0.6:
        return rng.choice(["Sprite1", "score", "items", "go", "all", "sprite", "STEPS", "after"])
    return _text(rng)


def composite_actions(rng: random.Random) -> Iterator[Any]:
    """Random and adversarial actions for the composite text action space (JSON or mappings)."""
    from scratch_gym.actions.composite import addable
    from scratch_gym.actions.composite_catalogue import COMPOSITE_APIS
    from scratch_gym.program import catalogue

    opcodes = sorted(
        s.opcode for c in catalogue.categories for s in catalogue.by_category(c) if addable(s)
    )
    apis = [a for a in COMPOSITE_APIS if not a.ends_episode]
    while True:
        roll = rng.random()
        if roll < 0.04:
            yield rng.choice(["add_block(", "{", "[]", 7, None, '{"api": 5}', b"\xff\xfe"])
            continue
        if roll < 0.06:
            yield {"api": rng.choice(["done", "failed"])}
            continue
        api = rng.choice(apis)
        args: dict[str, Any] = {}
        for p in api.params:
            if rng.random() < (0.93 if p.required else 0.35):
                args[p.name] = _composite_value(rng, p.kind, opcodes)
        if rng.random() < 0.05:
            args[rng.choice(["colour", "idx", CODE_LIKE[0]])] = 1
        action: Any = {"api": api.name, "args": args}
        if rng.random() < 0.05:
            action["api"] = rng.choice(["add-block", "", "ADD_BLOCK", None, CODE_LIKE[1]])
        if rng.random() < 0.3:
            action = json.dumps(action)
        yield action


def composite_is_valid(action: Any) -> bool:
    """Whether the composite parser accepts ``action`` (execution may still refuse it)."""
    from scratch_gym.actions.composite import CompositeActionModel
    from scratch_gym.actions.errors import ActionError

    try:
        CompositeActionModel().parse(action)
    except ActionError:
        return False
    return True


def fuzz(
    env: gym.Env,
    actions: Iterator[Any],
    n: int,
    *,
    is_valid: Callable[[Any], bool],
    hang_s: float = 30.0,
    reset_every: int = 25,
    progress: Callable[[int], None] | None = None,
) -> FuzzReport:
    """Step ``n`` actions; check the invariants described in the module docstring."""
    report = FuzzReport()
    base = env.unwrapped
    env.reset(seed=0)
    for i in range(n):
        if i and i % reset_every == 0:
            env.reset()
        action = next(actions)
        page = base.page
        before = (page.project_json()["targets"], page.bridge.view_state())
        running_before = page.summary()["running_threads"] > 0
        t0 = time.perf_counter()
        try:
            _, _, terminated, truncated, info = env.step(action)
        except Exception as exc:  # noqa: BLE001 - a crash is what we look for
            report.crashes.append(f"{_short(action)}: {type(exc).__name__}: {exc}")
            try:
                env.reset()
            except Exception as again:  # noqa: BLE001 - the report must still come out
                report.crashes.append(f"reset after that crash: {type(again).__name__}: {again}")
                break
            continue
        elapsed = time.perf_counter() - t0
        report.slowest_step_s = max(report.slowest_step_s, elapsed)
        if elapsed > hang_s:
            report.hangs.append(f"{_short(action)}: {elapsed:.1f} s")
        report.actions += 1
        error = info.get("last_action_error", "")
        if not is_valid(action) or error:
            report.invalid += 1
            if not error:
                report.missing_errors.append(_short(action))
            elif running_before or page.summary()["running_threads"] > 0:
                report.unchecked_while_running += 1
            elif (page.project_json()["targets"], page.bridge.view_state()) != before:
                report.state_changed_by_invalid.append(f"{_short(action)} -> {error}")
        if page.page.evaluate(f"Boolean(window.{CANARY_FLAG})"):
            report.code_executed = True
        if terminated or truncated:
            env.reset()
        if progress:
            progress(1)
    return report


def primitive_is_valid(action: Any) -> bool:
    """Whether the primitive parser accepts ``action`` (used to know which actions must fail)."""
    from scratch_gym.actions.errors import ActionError
    from scratch_gym.actions.primitive import parse_primitive_action

    try:
        parse_primitive_action(action)
    except ActionError:
        return False
    return True


def _short(action: Any) -> str:
    text = repr(action)
    return text if len(text) <= 200 else text[:200] + "..."
