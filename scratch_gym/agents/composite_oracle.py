"""The composite-mode oracle: turns the live program into the task's golden one with composite
actions only (``{"api": ..., "args": {...}}``), then answers ``done``.

It carries out the oracles' shared plan (:mod:`scratch_gym.agents.edit_plan`) target by target:
each edit operation becomes one or two composite actions (a new block is ``add_block``, filled in
on free canvas, then ``connect_blocks`` to its place). Actions are made one at a time from the live VM's blocks (read
through the env's privileged channel, as an oracle may) and name blocks by id until the last
moment, when the id becomes the index the latest observation shows; the numbering renumbers after
every edit.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from scratch_gym.agents import edit_plan as ep
from scratch_gym.agents.base import privileged_channel
from scratch_gym.agents.composite_plan import TreeReader
from scratch_gym.agents.golden import GoldenOracle
from scratch_gym.program.numbering import number_blocks

Action = dict[str, Any]


class CompositeOracleAgent(GoldenOracle):
    """Replays the golden solution of the task given to ``reset`` (needs :meth:`bind`)."""

    mode = "composite"
    DONE = {"api": "done", "args": {}}
    FAILED = {"api": "failed", "args": {}}

    def __init__(self) -> None:
        super().__init__()
        self.channel: Any = None  # the env's privileged channel

    def bind(self, env: Any) -> None:
        self.channel = privileged_channel(env)

    # -- the live editor ------------------------------------------------------------------------
    @property
    def page(self) -> Any:
        """The bound environment's privileged channel (see :meth:`bind`)."""
        if self.channel is None:
            raise RuntimeError("the oracle needs bind(env) before it acts")
        return self.channel

    def _editing(self) -> dict[str, Any]:
        """The editing target: ``{target, is_stage, blocks}`` (the VM's blocks)."""
        return self.page.bridge.composite_blocks()

    def _index(self, block_id: str) -> int:
        index = number_blocks(self._editing()["blocks"]).index_of(block_id)
        if index is None:
            raise RuntimeError(f"block {block_id} is not in the observation")
        return index

    def _tops(self) -> set[str]:
        blocks = self._editing()["blocks"]
        return {i for i, b in blocks.items() if b.get("topLevel") and not b.get("shadow")}

    def _live_project(self) -> dict[str, Any]:
        return self.page.project()

    # -- the plan -------------------------------------------------------------------------------
    def _plan(self) -> Iterator[Action]:
        for target, missing, want in self._targets_to_edit():
            yield from ep.carry_out(ep.setup_ops(target, missing), self._execute, self._editing)
            now = TreeReader(self._editing()["blocks"], vm=True).scripts()
            yield from ep.carry_out(ep.script_ops(now, want), self._execute, self._editing)
        self.mismatch = self._differences()
        yield {"api": "done", "args": {}}

    # -- the executor ---------------------------------------------------------------------------
    def _act(self, api: str, **args: Any) -> Action:
        """An action whose block-id arguments (index, source, target) become indices now."""
        for key in ("index", "source", "target"):
            if key in args:
                args[key] = self._index(args[key])
        return {"api": api, "args": args}

    def _execute(self, op: ep.EditOp, fill: ep.Fill | None = None) -> Iterator[Action]:
        """The composite actions of one edit operation; returns the id of a block it makes. A new
        block is filled in on free canvas, then connected (a C-block connected with an empty mouth
        would wrap the blocks below its place)."""
        if isinstance(op, ep.SelectTarget):
            if op.stage:
                yield {"api": "select_stage", "args": {}}
            else:
                yield {"api": "select_sprite", "args": {"name": op.name}}
        elif isinstance(op, ep.MakeData):
            api = "add_list" if op.is_list else "add_variable"
            yield {"api": api, "args": {"name": op.name, "scope": "all" if op.stage else "sprite"}}
        elif isinstance(op, ep.DefineBlock):
            options = {
                "proccode": op.proccode,
                "argument_names": list(op.argument_names),
                "warp": op.warp,
            }
            return (yield from self._add("procedures_definition", options))
        elif isinstance(op, ep.AddBlock):
            new = yield from self._add(op.opcode, op.options)
            assert fill is not None
            yield from fill(new)
            if op.below is not None:
                yield self._act(
                    "connect_blocks", source=new, target=op.below, placement="stack_after"
                )
            elif op.parent is not None:
                placement = "statement_into" if op.stack is not None else "value_into"
                slot = op.stack if op.stack is not None else op.input
                yield self._act(
                    "connect_blocks", source=new, target=op.parent, placement=placement, input=slot
                )
            return new
        elif isinstance(op, ep.SetInput):
            yield self._act("set_block_field", index=op.block, field=op.input, value=op.value)
        elif isinstance(op, ep.SetField):
            yield self._act("set_block_field", index=op.block, field=op.field, value=op.value)
        elif isinstance(op, ep.DeleteBlock):
            yield self._act("delete_block", index=op.block)
        elif isinstance(op, ep.DeleteScript):
            # deleting a hat deletes its script; a stack block leaves the blocks under it
            for block in op.blocks:
                if block in self._editing()["blocks"]:
                    yield self._act("delete_block", index=block)
        else:
            raise TypeError(f"not an edit operation: {op!r}")
        return None

    def _add(self, opcode: str, options: dict[str, Any]) -> Iterator[Action]:
        """``add_block`` (a new script on free canvas); returns the new block's id."""
        before = self._tops()
        yield {"api": "add_block", "args": {"opcode": opcode, **options}}
        new = list(self._tops() - before)
        if len(new) != 1:
            raise RuntimeError(f"add_block {opcode} made {len(new)} new scripts")
        return new[0]
