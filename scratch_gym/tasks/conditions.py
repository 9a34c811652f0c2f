"""Conditions on the evaluation VM, built in Python and checked in the page every frame.

A query names one value of the running program (``Sprite("Cat").x``, ``Var("score")``,
``Said("Cat")``...); comparing it gives a :class:`Cond` (``Sprite("Cat").x > 100``), and conditions
combine with ``&``, ``|`` and ``~``. Both serialise to JSON data for ``eval.run`` (``until`` and
``expect`` operations), so waiting for a condition costs no round trip per frame.
"""

from __future__ import annotations

from typing import Any


class Cond:
    """A condition: a comparison, or ``all``/``any``/``not`` of conditions."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec

    def __and__(self, other: Cond) -> Cond:
        return Cond({"all": [self.spec, other.spec]})

    def __or__(self, other: Cond) -> Cond:
        return Cond({"any": [self.spec, other.spec]})

    def __invert__(self) -> Cond:
        return Cond({"not": self.spec})

    def __bool__(self) -> bool:
        raise TypeError("a Cond is checked in the page: pass it to run.until() or run.expect()")

    def __repr__(self) -> str:
        return f"Cond({self.spec!r})"


class Query:
    """One value of the running program; compare it to build a :class:`Cond`."""

    __hash__ = None  # type: ignore[assignment]  # == builds a Cond

    def __init__(self, spec: dict[str, Any], label: str) -> None:
        self.spec = spec
        self.label = label

    def _cmp(self, op: str, value: Any, **extra: Any) -> Cond:
        return Cond({"left": self.spec, "op": op, "right": value, "label": self.label, **extra})

    def __eq__(self, value: Any) -> Cond:  # type: ignore[override]
        return self._cmp("==", value)

    def __ne__(self, value: Any) -> Cond:  # type: ignore[override]
        return self._cmp("!=", value)

    def __lt__(self, value: Any) -> Cond:
        return self._cmp("<", value)

    def __le__(self, value: Any) -> Cond:
        return self._cmp("<=", value)

    def __gt__(self, value: Any) -> Cond:
        return self._cmp(">", value)

    def __ge__(self, value: Any) -> Cond:
        return self._cmp(">=", value)

    def approx(self, value: float, tolerance: float = 0.5) -> Cond:
        """Numerically within ``tolerance`` of ``value``."""
        return self._cmp("approx", value, tolerance=tolerance)

    def contains(self, value: Any) -> Cond:
        """A list holds ``value`` (Scratch equality), or a text contains it."""
        return self._cmp("contains", value)

    def includes_text(self, text: str) -> Cond:
        """A text, or any text of a list (e.g. ``Said()``), has ``text`` in it."""
        return self._cmp("any_contains", text)

    def one_of(self, values: list[Any]) -> Cond:
        """Equal (Scratch equality) to one of ``values``."""
        return self._cmp("in", list(values))

    def truthy(self) -> Cond:
        """True as Scratch reads it (not empty, ``false`` or ``0``)."""
        return self._cmp("truthy", None)

    def falsy(self) -> Cond:
        """Not :meth:`truthy`."""
        return self._cmp("falsy", None)


class Sprite:
    """Properties of an original sprite: ``Sprite("Cat").x > 0``, ``Sprite("Cat").bubble``."""

    PROPS = (
        "x",
        "y",
        "direction",
        "size",
        "costume",
        "costume_number",
        "visible",
        "layer",
        "ghost",
        "bubble",
    )

    def __init__(self, name: str) -> None:
        self.name = name

    def __getattr__(self, prop: str) -> Query:
        if prop not in Sprite.PROPS:
            raise AttributeError(
                f"sprites have no property {prop!r}; known: {', '.join(self.PROPS)}"
            )
        return Query({"kind": "sprite", "sprite": self.name, "prop": prop}, f"{self.name}.{prop}")

    def touching(self, other: str) -> Cond:
        """Touching another sprite, ``"edge"`` or ``"mouse"`` (uses the evaluation renderer)."""
        q = {"kind": "touching", "sprite": self.name, "other": other}
        return Query(q, f"{self.name} touching {other}").truthy()


def Var(name: str, sprite: str | None = None) -> Query:  # noqa: N802 - reads like a block
    """A variable's value: the sprite's own (falling back to the stage), else the stage's."""
    return Query({"kind": "var", "name": name, "sprite": sprite}, f"variable {name}")


def List(name: str, sprite: str | None = None) -> Query:  # noqa: N802
    """A list's items."""
    return Query({"kind": "list", "name": name, "sprite": sprite}, f"list {name}")


def ListLength(name: str, sprite: str | None = None) -> Query:  # noqa: N802
    """How many items a list has."""
    return Query({"kind": "list_length", "name": name, "sprite": sprite}, f"length of list {name}")


def Said(sprite: str | None = None) -> Query:  # noqa: N802
    """Every text said or thought since the test began (by ``sprite``, or by anyone), as a list:
    ``Said("Cat").contains("Hi")``, ``Said("Cat") == ["Hi", "Bye"]`` (item by item)."""
    return Query({"kind": "said", "sprite": sprite}, f"said by {sprite or 'anyone'}")


def Backdrop() -> Query:  # noqa: N802
    """The stage's backdrop name."""
    return Query({"kind": "backdrop"}, "backdrop")


def Timer() -> Query:  # noqa: N802
    """Scratch's ``timer`` reporter, in seconds of virtual time."""
    return Query({"kind": "timer"}, "timer")


def Clones(sprite: str) -> Query:  # noqa: N802
    """How many clones of ``sprite`` exist."""
    return Query({"kind": "clones", "sprite": sprite}, f"clones of {sprite}")


def Question() -> Query:  # noqa: N802
    """The text of the ``ask`` waiting for an answer, or None."""
    return Query({"kind": "question"}, "question")


def Threads() -> Query:  # noqa: N802
    """How many scripts are running (monitor updates aside)."""
    return Query({"kind": "threads"}, "running scripts")


def idle() -> Cond:
    """No script is running any more."""
    return Threads() == 0


def asking() -> Cond:
    """The program waits for an answer to an ``ask``."""
    return Query({"kind": "asking"}, "asking").truthy()
