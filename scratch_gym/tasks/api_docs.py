"""The test API reference (markdown), generated from the docstrings of ``Run``, the state objects,
the conditions and the declarative steps, for docs/write-your-own-task.md."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any

from scratch_gym.tasks import conditions, declarative, test_api

RUN_GROUPS = {
    "Actions (queued, sent with the next read)": (
        "green_flag stop frames seconds key_down key_up press click mouse_move mouse_down "
        "mouse_up answer broadcast set_variable set_list"
    ),
    "Checks in the page": "expect throughout always until wait_until",
    "Reads": (
        "sprite clones clone var list said touching backdrop timer question threads frame time sync"
    ),
}
QUERY_METHODS = "approx contains includes_text one_of truthy falsy"
CONDITION_FUNCTIONS = "Var List ListLength Said Backdrop Timer Clones Question Threads idle asking"


def _first_paragraph(obj: Any, where: str) -> str:
    doc = inspect.getdoc(obj)
    if not doc:
        raise ValueError(f"{where} has no docstring: the test API reference is generated from them")
    return _markdown(" ".join(doc.split("\n\n")[0].split()))


def _markdown(text: str) -> str:
    """Docstring markup (reStructuredText roles, double backquotes) as markdown."""
    text = re.sub(r":(?:meth|attr|class|func):`~?([\w.]+)`", r"`\1`", text)
    return text.replace("``", "`")


def _signature(fn: Callable, name: str) -> str:
    parts = []
    for p in inspect.signature(fn).parameters.values():
        if p.name in ("self", "cls"):
            continue
        if p.kind is inspect.Parameter.VAR_POSITIONAL:
            parts.append(f"*{p.name}")
        elif p.default is inspect.Parameter.empty:
            parts.append(p.name)
        else:
            parts.append(f"{p.name}={p.default!r}")
    return f"{name}({', '.join(parts)})"


def _run_member(name: str) -> str:
    member = inspect.getattr_static(test_api.Run, name)
    if isinstance(member, property):
        return f"- `run.{name}`: {_first_paragraph(member.fget, f'Run.{name}')}"
    fn = getattr(test_api.Run, name)
    if name == "always":
        return "- `run.always(...)`: the same as `run.throughout(...)`."
    return f"- `run.{_signature(fn, name)}`: {_first_paragraph(fn, f'Run.{name}')}"


def _fields(cls: type) -> str:
    names = [f for f in cls.__dataclass_fields__ if not f.startswith("_")]
    return ", ".join(f"`{n}`" for n in names)


def api_reference_markdown() -> str:
    """The generated reference: ``run``, sprite states, said entries, conditions, steps."""
    out = [
        "A test is a `test_*` function in the task's tests.py taking one argument, `run` "
        "(`scratch_gym.tasks.Run`), on a fresh copy of the project in virtual time (30 frames a "
        "second). A failed `assert`, or a check in the page that does not hold (`TestFailure`, "
        "with its message), fails the test; the next test still runs.",
        "",
    ]
    for title, names in RUN_GROUPS.items():
        out += [f"**{title}**", ""]
        out += [_run_member(n) for n in names.split()]
        out.append("")
    out += [
        "**Sprite states** (`run.sprite(name)`, `run.clones(name)`): "
        + _first_paragraph(test_api.SpriteState, "SpriteState")
        + f" Fields: {_fields(test_api.SpriteState)}.",
        "",
        "**Said entries** (`run.said()`, `SpriteState.said`): "
        + _first_paragraph(test_api.Utterance, "Utterance")
        + " "
        + _markdown(" ".join(inspect.getdoc(test_api.Utterance).split("\n\n")[1].split())),  # type: ignore[union-attr]
        "",
        "**Conditions** (`from scratch_gym.tasks import Sprite, Var, ...`): "
        + _first_paragraph(conditions, "conditions"),
        "",
        f"- `Sprite(name).PROP` for PROP in {', '.join(f'`{p}`' for p in conditions.Sprite.PROPS)}"
        f"; `Sprite(name).touching(other)`: "
        + _first_paragraph(conditions.Sprite.touching, "Sprite.touching"),
    ]
    for name in CONDITION_FUNCTIONS.split():
        fn = getattr(conditions, name)
        out.append(f"- `{_signature(fn, name)}`: {_first_paragraph(fn, name)}")
    out.append(
        "- Comparisons `==`, `!=`, `<`, `<=`, `>`, `>=` of a query with a value give a condition; "
        "conditions combine with `&`, `|` and `~`. Query methods:"
    )
    for name in QUERY_METHODS.split():
        fn = getattr(conditions.Query, name)
        out.append(f"  - `.{_signature(fn, name)}`: {_first_paragraph(fn, f'Query.{name}')}")
    out += [
        "",
        "**Declarative steps** (`[[cases]]` in task.toml, run through the same `run`): "
        + _first_paragraph(declarative, "declarative"),
        "",
        "```text",
        _markdown(inspect.getdoc(declarative).split("\n\n", 1)[1].strip()),  # type: ignore[union-attr]
        "```",
    ]
    return "\n".join(out)
