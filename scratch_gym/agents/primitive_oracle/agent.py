"""The primitive oracle: solves a task from its golden project with mouse and keyboard only.

It carries out the oracles' shared plan (:mod:`scratch_gym.agents.edit_plan`) as gestures, target
by target: select it (click the sprite, or the stage), make the missing variables and lists (Make a
Variable / Make a List, with "For this sprite only" on sprites), define missing custom blocks (Make
a Block), then, planned again from the live scripts, edit the scripts
(:class:`~scratch_gym.agents.primitive_oracle.editing.ScriptEditor`) and answer ``done``. It reads
the editor through :class:`~scratch_gym.agents.primitive_oracle.view.EditorView` only; every action
is a primitive action for ``env.step``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from scratch_gym.agents import edit_plan as ep
from scratch_gym.agents.golden import GoldenOracle
from scratch_gym.agents.primitive_oracle.dialogs import overlap as _overlap  # noqa: F401
from scratch_gym.agents.primitive_oracle.dialogs import roots as _roots  # noqa: F401
from scratch_gym.agents.primitive_oracle.editing import ScriptEditor
from scratch_gym.agents.primitive_oracle.gestures import Action, OracleError
from scratch_gym.agents.primitive_oracle.view import EditorView

# Passes over the targets: a later pass repairs what an earlier one left different from the golden
# (a drag that pulled blocks out of a stack already built, seen now and then in thermostat-limits).
PASSES = 2


class PrimitiveOracleAgent(GoldenOracle):
    """Replays the golden solution of the task given to ``reset`` (needs :meth:`bind`)."""

    mode = "primitive"
    DONE = {"action_type": "done"}
    FAILED = {"action_type": "failed"}
    ActionFailed = OracleError

    def __init__(self, mode: str = "primitive") -> None:
        super().__init__()
        if mode != "primitive":
            raise ValueError(f"the primitive oracle acts in primitive mode, not {mode!r}")
        self.view: EditorView | None = None

    def bind(self, env: Any) -> None:
        self.view = EditorView(env)

    def _live_project(self) -> dict[str, Any]:
        assert self.view is not None
        return self.view.project()

    # -- the plan -------------------------------------------------------------------------------
    def _plan(self) -> Iterator[Action]:
        assert self.view is not None
        for _ in range(PASSES):
            for target, missing, want in self._targets_to_edit():
                editor = ScriptEditor(self.view)
                yield from ep.carry_out(ep.setup_ops(target, missing), editor.execute, self.view.vm)
                yield from self._define_blocks(want)
                yield from ScriptEditor(self.view).edit_target(want)
            self.mismatch = self._differences()
            if not self.mismatch:
                break
        yield {"action_type": "done"}

    def _define_blocks(self, want: list) -> Iterator[Action]:
        """Make a Block for each golden definition the target lacks (the plan's first edits; the
        rest is planned again once they exist, so their bodies are built where they landed)."""
        assert self.view is not None
        plan = ep.script_ops(self.view.scripts(), want)
        definitions = [op for op in plan if isinstance(op, ep.DefineBlock)]
        yield from ep.carry_out(definitions, ScriptEditor(self.view).execute, self.view.vm)
