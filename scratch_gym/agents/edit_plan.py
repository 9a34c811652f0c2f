"""The oracles' one edit planner: the edit operations that turn a target into the golden one.

Both oracles carry out the same plan, each with its own executor: the composite oracle as
composite actions (``add_block``, ``connect_blocks``, ...), the primitive oracle as mouse and
keyboard gestures. A target's plan is :func:`setup_ops` (select it, make its missing variables
and lists) then :func:`script_ops`: live scripts equal to a golden one are kept, each other golden
script is edited out of the live script with the same first block (stacks aligned block by block,
:func:`~scratch_gym.agents.composite_plan.align_stacks`) or built anew, and the live scripts left
over are deleted. In order: missing custom blocks are defined, leftover scripts deleted (room on the
canvas), the scripts edited (definitions first), leftover definitions deleted (the editor keeps a
definition while calls to it remain).

A new block's operation carries the edits that fill it in (its inputs, fields and mouths); each
executor places it before or after filling it (:class:`AddBlock`). A plan names a block it makes by
a handle (``new1``, ...) that :func:`carry_out` resolves to the made block's id. An operation the
editor already satisfies when its turn comes (a value a new block has by default, a target already
selected, a block already gone) is skipped, so a plan needs no guess of the editor's defaults.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from scratch_gym.agents.composite_plan import BlockTree, TreeReader, align_stacks, pair_scripts

DEFINITION = "procedures_definition"
A = TypeVar("A")


@dataclass(frozen=True)
class SelectTarget:
    """Make the sprite ``name`` (or the stage) the editing target."""

    name: str
    stage: bool


@dataclass(frozen=True)
class MakeData:
    """Make a variable or list: for all sprites on the stage, for this sprite only on a sprite."""

    name: str
    is_list: bool
    stage: bool


@dataclass(frozen=True)
class DefineBlock:
    """Define a custom block (its empty ``define`` hat, handle ``new``)."""

    new: str
    proccode: str
    argument_names: tuple[str, ...]
    warp: bool


@dataclass(frozen=True)
class AddBlock:
    """Make a block (handle ``new``) and put it under ``below``, into ``parent``'s statement
    ``stack`` or value ``input``, or (none given) on free canvas as a new script; ``fill`` are the
    edits that fill it in (its inputs, fields and mouths). An executor places the block before
    filling it (the primitive oracle: a drag straight into place) or after (the composite oracle:
    a C-block placed with an empty mouth would wrap the blocks below its place)."""

    new: str
    opcode: str
    options: dict[str, Any] = field(default_factory=dict)  # what the block names (add_block's)
    below: str | None = None
    parent: str | None = None
    stack: str | None = None
    input: str | None = None
    fill: tuple[EditOp, ...] = ()


@dataclass(frozen=True)
class SetInput:
    """Set the literal in an input (a custom block call's inputs by argument name)."""

    block: str
    input: str
    value: str


@dataclass(frozen=True)
class SetField:
    """Set a block's own field (a dropdown or text field)."""

    block: str
    field: str
    value: str


@dataclass(frozen=True)
class DeleteBlock:
    """Delete one block with its inputs and mouths; the blocks under it stay in its place."""

    block: str


@dataclass(frozen=True)
class DeleteScript:
    """Delete a whole script: ``top`` and the stack ``blocks`` under it."""

    top: str
    blocks: tuple[str, ...]


EditOp = (
    SelectTarget
    | MakeData
    | DefineBlock
    | AddBlock
    | SetInput
    | SetField
    | DeleteBlock
    | DeleteScript
)
Fill = Callable[[str], Generator[Any, Any, Any]]  # carries out an AddBlock's fill, given its id
OP_KINDS: tuple[type, ...] = (
    SelectTarget,
    MakeData,
    DefineBlock,
    AddBlock,
    SetInput,
    SetField,
    DeleteBlock,
    DeleteScript,
)
BLOCK_REFERENCES = ("block", "below", "parent")  # fields that may name a handle
CHECKED = (SelectTarget, SetInput, SetField, DeleteBlock, DeleteScript)  # may be done already


# -- planning ---------------------------------------------------------------------------------------
def setup_ops(target: dict[str, Any], missing: list[tuple[str, str]]) -> list[EditOp]:
    """Select the golden ``target`` and make the data it lacks (``missing_data``'s pairs)."""
    stage = bool(target.get("isStage"))
    ops: list[EditOp] = [SelectTarget(target["name"], stage)]
    ops += [MakeData(name, api == "add_list", stage) for api, name in missing]
    return ops


def script_ops(now: list[list[BlockTree]], want: list[list[BlockTree]]) -> list[EditOp]:
    """The edits that turn the editing target's live scripts ``now`` (``TreeReader(vm=True)``)
    into the golden scripts ``want``."""
    return _ScriptPlanner().target(now, want)


class _ScriptPlanner:
    def __init__(self) -> None:
        self.ops: list[EditOp] = []
        self.made = 0

    def _handle(self, node: BlockTree) -> BlockTree:
        """A new block's stand-in: the options that make it, nothing filled in yet."""
        self.made += 1
        return BlockTree(f"new{self.made}", node.opcode, node.key, dict(node.options))

    def target(self, now: list[list[BlockTree]], want: list[list[BlockTree]]) -> list[EditOp]:
        todo, pending = pair_scripts(now, want)
        for k, (script, base) in enumerate(todo):
            top = script[0]
            if base is None and top.opcode == DEFINITION:
                made = self._handle(top)
                names = tuple(top.options.get("argument_names") or ())
                warp = bool(top.options.get("warp"))
                self.ops.append(DefineBlock(made.id, top.options["proccode"], names, warp))
                todo[k] = (script, [made])
        definitions = [i for i in pending if now[i][0].opcode == DEFINITION]
        for i in pending:
            if i not in definitions:
                self.ops.append(DeleteScript(now[i][0].id, tuple(n.id for n in now[i])))
        todo.sort(key=lambda t: t[0][0].opcode != DEFINITION)
        for script, base in todo:
            self.stack(base or [], script, None, None)
        for i in definitions:
            self.ops.append(DeleteScript(now[i][0].id, tuple(n.id for n in now[i])))
        return self.ops

    def stack(
        self, now: list[BlockTree], want: list[BlockTree], parent: str | None, name: str | None
    ) -> None:
        """Edit the stack ``now`` (a script, or ``parent``'s statement input ``name``)."""
        pairs = align_stacks(now, want, force_first=parent is None)
        kept = {c for c, _ in pairs}
        to_now = {w: c for c, w in pairs}
        for i, node in enumerate(now):
            if i not in kept:
                self.ops.append(DeleteBlock(node.id))
        prev: str | None = None
        for w, node in enumerate(want):
            if w in to_now:
                current = now[to_now[w]]
                self.block(current, node)
                prev = current.id
                continue
            made = self._handle(node)
            first = prev is None
            self.ops.append(
                AddBlock(
                    made.id,
                    node.opcode,
                    dict(node.options),
                    below=prev,
                    parent=parent if first else None,
                    stack=name if first else None,
                    fill=self._fill(made, node),
                )
            )
            prev = made.id

    def _fill(self, made: BlockTree, want: BlockTree) -> tuple[EditOp, ...]:
        """The edits that fill a new block in (planned apart from the rest)."""
        outer, self.ops = self.ops, []
        try:
            self.block(made, want)
            return tuple(self.ops)
        finally:
            self.ops = outer

    def block(self, now: BlockTree, want: BlockTree) -> None:
        """Edit one block: its reporters and literals, fields and statement stacks."""
        names = list(dict.fromkeys([*want.literals, *want.reporters, *now.reporters]))
        for name in names:
            got, need = now.reporters.get(name), want.reporters.get(name)
            if got is not None and need is not None and got.key == need.key:
                self.block(got, need)
                continue
            if got is not None:
                self.ops.append(DeleteBlock(got.id))
            if need is not None:
                made = self._handle(need)
                fill = self._fill(made, need)
                self.ops.append(
                    AddBlock(
                        made.id,
                        need.opcode,
                        dict(need.options),
                        parent=now.id,
                        input=name,
                        fill=fill,
                    )
                )
            elif name in want.literals and want.literals[name] != now.literals.get(name):
                self.ops.append(SetInput(now.id, name, want.literals[name]))
        for name, value in want.fields.items():
            if now.fields.get(name) != value:
                self.ops.append(SetField(now.id, name, value))
        for name in dict.fromkeys([*want.stacks, *now.stacks]):
            self.stack(now.stacks.get(name, []), want.stacks.get(name, []), now.id, name)


# -- carrying a plan out ----------------------------------------------------------------------------
def carry_out(
    ops: Iterable[EditOp],
    execute: Callable[[EditOp, Fill | None], Generator[A, Any, str | None]],
    editing: Callable[[], dict[str, Any]],
    made: dict[str, str] | None = None,
) -> Generator[A, Any, dict[str, str]]:
    """Yield the actions ``execute`` makes of each operation, in order: handles replaced by the
    ids of the blocks made for them, operations the editor already satisfies skipped. ``execute``
    gets an AddBlock's fill as a function to call with the new block's id. ``editing`` reads the
    editing target (``{target, is_stage, blocks}``: the VM's blocks). Returns the ids made, by
    handle."""
    made = {} if made is None else made
    for op in ops:
        op = resolved(op, made)
        if isinstance(op, CHECKED) and satisfied(op, editing()):
            continue
        fill = None
        if isinstance(op, AddBlock):

            def fill(new: str, op: AddBlock = op) -> Generator[A, Any, Any]:
                made[op.new] = new
                return carry_out(op.fill, execute, editing, made)

        new = yield from execute(op, fill)
        if isinstance(op, AddBlock | DefineBlock):
            if not new:
                raise RuntimeError(f"{type(op).__name__} {op.new} made no block")
            if isinstance(op, AddBlock) and made.get(op.new) != new:
                raise RuntimeError(f"AddBlock {op.new}: the executor did not fill it in")
            made[op.new] = new
    return made


def resolved(op: EditOp, made: dict[str, str]) -> EditOp:
    """``op`` with the handles it names replaced by the ids made for them."""
    changes = {
        name: made[value]
        for name in BLOCK_REFERENCES
        if isinstance(value := getattr(op, name, None), str) and value in made
    }
    return dataclasses.replace(op, **changes) if changes else op


def satisfied(op: EditOp, editing: dict[str, Any]) -> bool:
    """Whether the editor already is as ``op`` would make it."""
    blocks = editing["blocks"]
    if isinstance(op, SelectTarget):
        if op.stage:
            return bool(editing["is_stage"])
        return not editing["is_stage"] and editing["target"] == op.name
    if isinstance(op, SetInput | SetField):
        if op.block not in blocks:
            return False
        node = TreeReader(blocks, vm=True).node(op.block)
        if isinstance(op, SetInput):
            return node.literals.get(op.input) == op.value
        return node.fields.get(op.field) == op.value
    if isinstance(op, DeleteBlock):
        return op.block not in blocks
    if isinstance(op, DeleteScript):
        return op.top not in blocks
    return False
