"""A test driver for composite mode: steps by block id, translating ids to the current indices."""

from __future__ import annotations

from typing import Any

from scratch_gym.editor.page import EditorPage
from scratch_gym.program.numbering import NumberedProgram, number_blocks


class Driver:
    """Steps an environment (or, with ``fast``, the action model alone) and tracks block ids.

    ``fast`` skips the observation and the settle of a full env step: the edit still runs in the
    real editor through the same action model, which is what the catalogue-wide test needs.
    """

    def __init__(self, env: Any, fast: bool = False) -> None:
        self.env = env.unwrapped
        self.fast = fast
        self.obs: dict[str, str] | None = None
        self.info: dict[str, Any] = {}
        self._state: tuple[dict[str, Any], NumberedProgram] | None = None

    @property
    def page(self) -> EditorPage:
        return self.env.page

    def _read(self) -> tuple[dict[str, Any], NumberedProgram]:
        """The editing target's VM blocks and their numbering (cached until the next step)."""
        if self._state is None:
            blocks = self.page.call("composite.blocks")["blocks"]
            self._state = (blocks, number_blocks(blocks))
        return self._state

    def program(self) -> NumberedProgram:
        return self._read()[1]

    def vm_blocks(self) -> dict[str, Any]:
        return self._read()[0]

    def index(self, block_id: str) -> int:
        index = self.program().index_of(block_id)
        assert index is not None, f"block {block_id} is not numbered"
        return index

    def step(self, api: str, ok: bool = True, **args: Any) -> str:
        """Run one action; return its result (``ok``) or its error (``ok=False``)."""
        action = {"api": api, "args": args}
        self._state = None
        if self.fast:
            from scratch_gym.actions.errors import ActionError

            model = self.env.actions
            try:
                parsed = model.parse(action)
                result, error = model.execute(self.page, parsed)["action_result"], ""
            except ActionError as exc:
                result, error = "", str(exc)
        else:
            self.obs, _, _, _, self.info = self.env.step(action)
            result, error = self.obs["last_action_result"], self.obs["last_action_error"]
        if ok:
            assert not error, f"{action} failed: {error}"
            return result
        assert error, f"{action} should have failed but gave: {result}"
        return error

    def add(self, opcode: str, **options: Any) -> str:
        """Add a block; return its id."""
        before = set(self.program().ids)
        self.step("add_block", opcode=opcode, **options)
        new = [i for i in self.program().ids if i not in before]
        assert len(new) == 1, f"add_block {opcode} made {len(new)} numbered blocks"
        return new[0]

    def connect(self, source: str, target: str, placement: str, input: str | None = None) -> str:
        args: dict[str, Any] = {"placement": placement}
        if input is not None:
            args["input"] = input
        return self.step(
            "connect_blocks", source=self.index(source), target=self.index(target), **args
        )

    def set(self, block_id: str, field: str, value: Any) -> str:
        return self.step("set_block_field", index=self.index(block_id), field=field, value=value)
