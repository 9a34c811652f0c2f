"""Declarative test cases: steps written as data in ``task.toml``, run through the same ``Run``.

Steps (one key each, plus options)::

    {green_flag = true}   {stop = true}        {frames = 30}          {seconds = 1.5}
    {press = "space", frames = 2}              {key_down = "a"}       {key_up = "a"}
    {click = "Cat"}       {mouse = [x, y]}     {mouse_down = true}    {mouse_up = true}
    {answer = "Bob"}      {broadcast = "go"}   {set_variable = "n", value = 5, sprite = "Cat"}
    {until = COND, frames = 90, message = "..."}   # fails the test if COND never holds
    {expect = COND, message = "..."}
    {throughout = COND, frames = 60, message = "..."}   # COND holds on every frame of the span
    {always = COND, seconds = 2}                         # the same (frames or seconds)

Conditions: a query key, ``op`` (== != < <= > >= approx contains includes_text in) and
``value`` (``contains``: a list holds the value, or a text has it; ``includes_text``: a text, or
any text of a list, has it; a list compared with ``==``/``!=`` to a list value compares item by
item, ``["a", "b"]`` is not ``"a,b"``)::

    {sprite = "Cat", prop = "x", op = ">", value = 50}     {var = "score", op = "==", value = 3}
    {list = "items", op = "contains", value = "a"}         {list_length = "items", op = ">=", value = 2}
    {said = "Cat", op = "contains", value = "Hi"}          ({said = "*"}: said by anyone)
    {backdrop = true, op = "==", value = "night"}          {timer = true, op = ">", value = 2}
    {clones = "Ball", op = ">=", value = 3}                {question = true, op = "==", value = "Name?"}
    {asking = true}   {idle = true}   {touching = ["Cat", "edge"]}
    {all = [COND, ...]}   {any = [COND, ...]}   {not = COND}
"""

from __future__ import annotations

from typing import Any

from scratch_gym.tasks import conditions as c
from scratch_gym.tasks.test_api import Run

OPS = ("==", "!=", "<", "<=", ">", ">=", "approx", "contains", "includes_text", "in")


class StepError(ValueError):
    """A declarative step or condition is malformed."""


def parse_cond(spec: Any) -> c.Cond:
    """A condition table to a :class:`~scratch_gym.tasks.conditions.Cond`."""
    if not isinstance(spec, dict):
        raise StepError(f"a condition must be a table, got {spec!r}")
    if "all" in spec:
        return _combine([parse_cond(s) for s in spec["all"]], "all")
    if "any" in spec:
        return _combine([parse_cond(s) for s in spec["any"]], "any")
    if "not" in spec:
        return ~parse_cond(spec["not"])
    if spec.get("asking"):
        return c.asking()
    if spec.get("idle"):
        return c.idle()
    if "touching" in spec:
        sprite, other = spec["touching"]
        return c.Sprite(sprite).touching(other)
    query = _query(spec)
    op = spec.get("op", "==")
    if op not in OPS:
        raise StepError(f"unknown op {op!r} in {spec!r}; known: {', '.join(OPS)}")
    if "value" not in spec:
        raise StepError(f"condition {spec!r} needs a value")
    value = spec["value"]
    if op == "approx":
        return query.approx(value, spec.get("tolerance", 0.5))
    if op == "contains":
        return query.contains(value)
    if op == "in":
        return query.one_of(value)
    if op == "includes_text":
        return query.includes_text(value)
    return {
        "==": query.__eq__,
        "!=": query.__ne__,
        "<": query.__lt__,
        "<=": query.__le__,
        ">": query.__gt__,
        ">=": query.__ge__,
    }[op](value)


def _combine(conds: list[c.Cond], how: str) -> c.Cond:
    return c.Cond({how: [x.spec for x in conds]})


def _query(spec: dict[str, Any]) -> c.Query:
    sprite = spec.get("sprite")
    if "var" in spec:
        return c.Var(spec["var"], sprite)
    if "list" in spec:
        return c.List(spec["list"], sprite)
    if "list_length" in spec:
        return c.ListLength(spec["list_length"], sprite)
    if "said" in spec:
        who = spec["said"]
        return c.Said(None if who in ("*", True) else who)
    if "bubble" in spec:
        return c.Sprite(spec["bubble"]).bubble
    if spec.get("backdrop"):
        return c.Backdrop()
    if spec.get("timer"):
        return c.Timer()
    if "clones" in spec:
        return c.Clones(spec["clones"])
    if spec.get("question"):
        return c.Question()
    if sprite is not None and "prop" in spec:
        return getattr(c.Sprite(sprite), spec["prop"])
    raise StepError(f"condition {spec!r} names no query (sprite+prop, var, list, said, ...)")


def run_steps(run: Run, steps: tuple[dict[str, Any], ...] | list[dict[str, Any]]) -> None:
    """Execute declarative steps on ``run``; raises TestFailure like a Python test."""
    for i, step in enumerate(steps):
        try:
            _step(run, step)
        except StepError as exc:
            raise StepError(f"step {i + 1}: {exc}") from None


def _step(run: Run, step: dict[str, Any]) -> None:
    if not isinstance(step, dict):
        raise StepError(f"a step must be a table, got {step!r}")
    span = next((k for k in ("throughout", "always") if k in step), None)
    if span is not None:
        run.throughout(
            parse_cond(step[span]),
            frames=step.get("frames"),
            seconds=step.get("seconds") if "frames" not in step else None,
            message=step.get("message", ""),
        )
    elif step.get("green_flag"):
        run.green_flag()
    elif step.get("stop"):
        run.stop()
    elif "press" in step:
        run.press(step["press"], step.get("frames", 2))
    elif "frames" in step and "until" not in step:
        run.frames(step["frames"])
    elif "seconds" in step:
        run.seconds(step["seconds"])
    elif "key_down" in step:
        run.key_down(step["key_down"])
    elif "key_up" in step:
        run.key_up(step["key_up"])
    elif "click" in step:
        run.click(step["click"])
    elif "mouse" in step:
        x, y = step["mouse"]
        run.mouse_move(x, y)
    elif step.get("mouse_down"):
        run.mouse_down()
    elif step.get("mouse_up"):
        run.mouse_up()
    elif "answer" in step:
        answers = step["answer"]
        run.answer(*(answers if isinstance(answers, list) else [answers]))
    elif "broadcast" in step:
        run.broadcast(step["broadcast"])
    elif "set_variable" in step:
        run.set_variable(step["set_variable"], step.get("value"), step.get("sprite"))
    elif "until" in step:
        run.wait_until(parse_cond(step["until"]), step.get("frames", 300), step.get("message", ""))
    elif "expect" in step:
        run.expect(parse_cond(step["expect"]), step.get("message", ""))
    else:
        raise StepError(f"unknown step {step!r}")


def validate_steps(steps: Any) -> None:
    """Check the shape of declarative steps without running them (raises StepError)."""
    if not isinstance(steps, list) or not steps:
        raise StepError("steps must be a non-empty list of tables")
    for i, step in enumerate(steps):
        try:
            if not isinstance(step, dict):
                raise StepError(f"a step must be a table, got {step!r}")
            for key in ("until", "expect", "throughout", "always"):
                if key in step:
                    parse_cond(step[key])
            for key in ("throughout", "always"):
                if key in step and ("frames" in step) == ("seconds" in step):
                    raise StepError(f"{key} needs frames or seconds (one of them): {step!r}")
        except StepError as exc:
            raise StepError(f"step {i + 1}: {exc}") from None
