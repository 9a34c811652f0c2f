"""``parse_scripts``: scratchblocks text -> the blocks of one target (see the matcher module)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scratch_gym.program.blockdefs import Catalogue
from scratch_gym.program.emit import Emitter
from scratch_gym.program.matcher import (
    ParseResult,
    _declared,
    _names,
    _Parser,
    _procedures_of,
)


def parse_scripts(
    text: str,
    *,
    dialect: str = "standard",
    target: dict[str, Any] | None = None,
    stage: dict[str, Any] | None = None,
    variables: Mapping[str, str] | Iterable[str] | None = None,
    lists: Mapping[str, str] | Iterable[str] | None = None,
    broadcasts: Mapping[str, str] | Iterable[str] | None = None,
    id_prefix: str = "",
    origin: tuple[float, float] = (0, 0),
    catalogue: Catalogue | None = None,
) -> ParseResult:
    """Parse scratchblocks ``text`` into sb3 blocks for one target.

    ``target`` and ``stage`` (project.json target dicts) supply the variables, lists, broadcasts
    and custom blocks the text may use; ``variables``/``lists``/``broadcasts`` add names (a
    mapping gives their ids). ``dialect`` is ``"standard"`` or ``"nl2scratch"`` and decides
    what an unknown ``(name)`` is (see :mod:`scratch_gym.program.matcher`). Block ids start with
    ``id_prefix`` and avoid the ids of ``target``'s and ``stage``'s blocks; scripts are laid out
    downwards from ``origin``. Raises ScratchblocksError.
    """
    if catalogue is None:
        from scratch_gym.program import catalogue as default

        catalogue = default
    known_vars = {**_declared(stage, "variables"), **_declared(target, "variables")}
    known_lists = {**_declared(stage, "lists"), **_declared(target, "lists")}
    known_broadcasts = {**_declared(stage, "broadcasts"), **_declared(target, "broadcasts")}
    known_vars.update(_names(variables, f"{id_prefix}var"))
    known_lists.update(_names(lists, f"{id_prefix}list"))
    known_broadcasts.update(_names(broadcasts, f"{id_prefix}broadcast"))
    parser = _Parser(
        catalogue,
        dialect,
        known_vars,
        known_lists,
        known_broadcasts,
        _procedures_of(target),
        id_prefix,
    )
    scripts = parser.parse(text)
    taken = set((target or {}).get("blocks", {})) | set((stage or {}).get("blocks", {}))
    return Emitter(parser, origin, taken).emit(scripts)
