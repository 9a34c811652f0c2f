"""The composite-mode oracle: turns the live program into the task's golden one with composite
actions only (``{"api": ..., "args": {...}}``), then answers ``done``.

Per target whose scripts or variables differ from the golden's: select it, make the missing
variables and lists, keep scripts that already equal a golden one, and edit each other golden
script out of the live script with the same first block (or build it): stacks are aligned block by
block (longest common subsequence of blocks with the same opcode, custom block or name), so only
what differs is deleted, added, connected or set. Live scripts left over are deleted. Custom
blocks are defined before anything that calls them.

Actions are made one at a time from the live VM's blocks (read through the page, as an oracle
may) and name blocks by id until the last moment, when the id becomes the index the latest
observation shows; the numbering renumbers after every edit.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from scratch_gym.agents.base import privileged_channel
from scratch_gym.agents.composite_plan import (
    BlockTree,
    TreeReader,
    align_stacks,
    pair_scripts,
)
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

    def _blocks(self) -> dict[str, Any]:
        return self.page.bridge.composite_blocks()

    def _index(self, block_id: str) -> int:
        index = number_blocks(self._blocks()["blocks"]).index_of(block_id)
        if index is None:
            raise RuntimeError(f"block {block_id} is not in the observation")
        return index

    def _tops(self) -> set[str]:
        blocks = self._blocks()["blocks"]
        return {i for i, b in blocks.items() if b.get("topLevel") and not b.get("shadow")}

    # -- the plan -------------------------------------------------------------------------------
    def _live_project(self) -> dict[str, Any]:
        return self.page.project()

    def _plan(self) -> Iterator[Action]:
        for target, missing, want in self._targets_to_edit():
            yield from self._select(target)
            scope = "all" if target.get("isStage") else "sprite"
            for api, name in missing:
                yield {"api": api, "args": {"name": name, "scope": scope}}
            yield from self._edit_target(want)
        self.mismatch = self._differences()
        yield {"api": "done", "args": {}}

    def _select(self, target: dict[str, Any]) -> Iterator[Action]:
        state = self._blocks()
        if target.get("isStage"):
            if not state["is_stage"]:
                yield {"api": "select_stage", "args": {}}
        elif state["is_stage"] or state["target"] != target["name"]:
            yield {"api": "select_sprite", "args": {"name": target["name"]}}

    def _edit_target(self, want: list[list[BlockTree]]) -> Iterator[Action]:
        now = TreeReader(self._blocks()["blocks"], vm=True).scripts()
        todo, pending = pair_scripts(now, want)
        for k, (script, base) in enumerate(todo):  # define custom blocks before any call
            if base is None and script[0].opcode == "procedures_definition":
                made = yield from self._build(script[0])
                todo[k] = (script, [TreeReader(self._blocks()["blocks"], vm=True).node(made)])
        for script, base in todo:
            yield from self._edit_stack(base or [], script, None, None)
        leftovers = sorted(pending, key=lambda i: now[i][0].opcode == "procedures_definition")
        for i in leftovers:  # deleting a script's top block deletes the script (as the editor)
            for node in now[i]:
                if node.id in self._blocks()["blocks"]:
                    yield self._act("delete_block", index=node.id)

    # -- edits ----------------------------------------------------------------------------------
    def _act(self, api: str, **args: Any) -> Action:
        """An action whose block-id arguments (index, source, target) become indices now."""
        for key in ("index", "source", "target"):
            if key in args:
                args[key] = self._index(args[key])
        return {"api": api, "args": args}

    def _edit_stack(
        self, now: list[BlockTree], want: list[BlockTree], parent: str | None, slot: str | None
    ) -> Iterator[Action]:
        pairs = align_stacks(now, want, force_first=parent is None)
        kept = {c for c, _ in pairs}
        to_now = {g: c for c, g in pairs}
        for i, node in enumerate(now):
            if i not in kept:
                yield self._act("delete_block", index=node.id)
        prev: str | None = None
        for g, node in enumerate(want):
            if g in to_now:
                current = now[to_now[g]]
                yield from self._edit_block(current, node)
                prev = current.id
                continue
            new = yield from self._build(node)
            if prev is not None:
                yield self._act("connect_blocks", source=new, target=prev, placement="stack_after")
            elif parent is not None:
                yield self._act(
                    "connect_blocks",
                    source=new,
                    target=parent,
                    placement="statement_into",
                    input=slot,
                )
            prev = new

    def _build(self, node: BlockTree) -> Iterator[Action]:
        """Add ``node`` as a new script and fill it in; returns the new block's id."""
        before = self._tops()
        yield {"api": "add_block", "args": {"opcode": node.opcode, **node.options}}
        new = [i for i in self._tops() - before]
        if len(new) != 1:
            raise RuntimeError(f"add_block {node.opcode} made {len(new)} new scripts")
        made = TreeReader(self._blocks()["blocks"], vm=True).node(new[0])
        yield from self._edit_block(made, node)
        return new[0]

    def _edit_block(self, now: BlockTree, want: BlockTree) -> Iterator[Action]:
        names = list(dict.fromkeys([*want.literals, *want.reporters, *now.reporters]))
        for name in names:
            got, need = now.reporters.get(name), want.reporters.get(name)
            if got is not None and need is not None and got.key == need.key:
                yield from self._edit_block(got, need)
                continue
            if got is not None:
                yield self._act("delete_block", index=got.id)
            if need is not None:
                new = yield from self._build(need)
                yield self._act(
                    "connect_blocks", source=new, target=now.id, placement="value_into", input=name
                )
            elif name in want.literals and want.literals[name] != now.literals.get(name):
                yield self._act(
                    "set_block_field", index=now.id, field=name, value=want.literals[name]
                )
        for name, value in want.fields.items():
            if now.fields.get(name) != value:
                yield self._act("set_block_field", index=now.id, field=name, value=value)
        for name in dict.fromkeys([*want.stacks, *now.stacks]):
            yield from self._edit_stack(
                now.stacks.get(name, []), want.stacks.get(name, []), now.id, name
            )
