"""The one task vocabulary: which tasks a ``tasks=`` argument or a suite's selection names.

A selection is ``None`` or ``"all"`` (every task), a category, a task id, or a list mixing task
ids and categories; :func:`select_ids` turns it into sorted task ids, given the ids and the ids
of each category; :func:`select_from` does it for task objects (their ``id`` and
``category``). Every env that takes ``tasks=`` and every suite's ``select`` read it here, so
the same words mean the same thing everywhere (docs/tasks-and-rewards.md, "Selecting tasks"). An
env may add aliases of ``"all"`` (single-drag's ``"stored"``) and words it handles itself
(single-drag's ``"generated"``), which are named in the errors but not selected here.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol, TypeVar

ALL = "all"


class Selectable(Protocol):
    """What a selection reads of a task: its id and its category."""

    @property
    def id(self) -> str: ...

    @property
    def category(self) -> str: ...


T = TypeVar("T", bound=Selectable)


class TaskSelectionError(ValueError):
    """A selection names something that is neither a task nor a category: the message names the
    entry, the closest id or category, and what a selection may hold."""

    def __init__(self, message: str, entry: str | None = None) -> None:
        self.entry = entry  # the unknown entry, if one is to blame
        super().__init__(message)


def select_ids(
    spec: str | Sequence[str] | None,
    ids: Iterable[str],
    categories: Mapping[str, Iterable[str]],
    *,
    aliases: Sequence[str] = (),
    words: Sequence[str] = (),
    listing: str = "",
) -> list[str]:
    """The sorted ids ``spec`` selects among ``ids``, given each category's ids.

    ``aliases`` mean ``"all"`` too; ``words`` are names the caller handles before it calls this
    (they stand alone, never in a list, and are offered in the errors); ``listing`` is the
    command that lists the ids, for the error message. :class:`TaskSelectionError` otherwise."""
    known = sorted(set(ids))
    groups = {name: set(members) for name, members in categories.items()}
    allowed = "; allowed: " + _allowed(known, sorted(groups), aliases, words, listing)
    if spec is None:
        return known
    entries = [spec] if isinstance(spec, str) else spec
    if not isinstance(entries, Sequence) or not all(isinstance(e, str) for e in entries):
        raise TaskSelectionError(
            f"a selection is a string or a list of strings, got {spec!r}{allowed}"
        )
    chosen: set[str] = set()
    for entry in entries:
        if entry == ALL or entry in aliases:
            chosen.update(known)
        elif entry in known:
            chosen.add(entry)
        elif entry in groups:
            chosen.update(groups[entry])
        elif entry in words:
            raise TaskSelectionError(f"{entry!r} stands alone, not in a list{allowed}", entry)
        else:
            unknown = _unknown(entry, known, sorted(groups), words)
            raise TaskSelectionError(unknown + allowed, entry)
    if not chosen:
        raise TaskSelectionError(f"the selection {spec!r} holds no task{allowed}")
    return sorted(chosen)


def select_from(
    spec: str | Sequence[str] | None,
    tasks: Sequence[T],
    *,
    argument: str | None = None,
    aliases: Sequence[str] = (),
    words: Sequence[str] = (),
    listing: str = "",
) -> list[T]:
    """The tasks of ``tasks`` that ``spec`` selects, sorted by id, their categories being each
    task's ``category`` (:func:`select_ids`, whose keywords these are). With ``argument`` (an
    env's ``tasks``), an error's message starts ``<argument>=<spec>: ``."""
    by_id = {t.id: t for t in tasks}
    categories: dict[str, list[str]] = {}
    for task in tasks:
        categories.setdefault(task.category, []).append(task.id)
    try:
        ids = select_ids(spec, by_id, categories, aliases=aliases, words=words, listing=listing)
    except TaskSelectionError as exc:
        if argument is None:
            raise
        raise TaskSelectionError(f"{argument}={spec!r}: {exc}", exc.entry) from None
    return [by_id[i] for i in ids]


def _allowed(
    ids: list[str],
    categories: list[str],
    aliases: Sequence[str],
    words: Sequence[str],
    listing: str,
) -> str:
    """``'all', a category (create, debug), a task id, or a list of task ids and categories
    (12 tasks: scratch-gym tasks list)``."""
    everything = repr(ALL) + (f" (or {', '.join(map(repr, aliases))})" if aliases else "")
    heads = [everything, *map(repr, words)]
    if categories:
        heads.append(f"a category ({', '.join(categories)})")
    count = f"{len(ids)} tasks" + (f": {listing}" if listing else "")
    return f"{', '.join(heads)}, a task id, or a list of task ids and categories ({count})"


def _unknown(name: str, ids: list[str], categories: list[str], words: Sequence[str]) -> str:
    """``unknown category 'creat' (did you mean 'create'?)``: the kind of name (category or
    task) is that of the closest match."""
    best: tuple[float, str, str] = (0.0, "task or category", "")
    for kind, known in (("category", categories), ("task", ids), ("word", list(words))):
        for match in difflib.get_close_matches(name, known, n=1, cutoff=0.6):
            ratio = difflib.SequenceMatcher(None, name, match).ratio()
            if ratio > best[0]:
                best = (ratio, kind if kind != "word" else "task or category", match)
    _, kind, match = best
    hint = f" (did you mean {match!r}?)" if match else ""
    return f"unknown {kind} {name!r}{hint}"
