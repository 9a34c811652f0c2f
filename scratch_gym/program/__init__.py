"""The program model: block catalogue, scratchblocks text <-> Scratch 3 blocks, project building.

* ``catalogue``: every block (opcode, category, shape, inputs, menus, scratchblocks pattern),
  read from ``catalogue.json``, which ``python -m scratch_gym.editor.catalogue_builder``
  regenerates from the pinned editor.
* ``parse_scripts(text, ...)``: scratchblocks -> sb3 blocks of one target (a ParseResult).
* ``render_scripts(blocks, ..., dialect=)``: sb3 (or live VM) blocks -> scratchblocks text;
  ``render_targets(project)`` renders every target of a project.json; ``render_block(blocks, id)``
  one block's own text with its values.
* ``ProjectBuilder``: whole projects with drawn costumes and synthesised sounds, saved as .sb3.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from scratch_gym.program.assets import Costume, Sound
from scratch_gym.program.builder import ProjectBuilder
from scratch_gym.program.errors import ScratchblocksError
from scratch_gym.program.matcher import ParseResult
from scratch_gym.program.parse import parse_scripts
from scratch_gym.program.render import render_block, render_scripts, render_targets

if TYPE_CHECKING:
    from scratch_gym.program.blockdefs import Catalogue

__all__ = [
    "Costume",
    "ParseResult",
    "ProjectBuilder",
    "Sound",
    "ScratchblocksError",
    "catalogue",
    "parse_scripts",
    "render_block",
    "render_scripts",
    "render_targets",
]


@lru_cache(maxsize=1)
def _load() -> Catalogue:
    from scratch_gym.program.blockdefs import load_catalogue

    return load_catalogue()


def __getattr__(name: str) -> Any:
    if name == "catalogue":
        return _load()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
