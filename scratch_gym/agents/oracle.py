"""The oracle: replays a task's golden solution.

Primitive mode: real mouse and keyboard actions computed from the live editor's geometry (the
element list of ``elements.list``: categories, palette blocks, canvas blocks and their fields):
pick the category, drag each block of the golden's new scripts from the palette onto the code
area or under the previous block, edit its inputs (click, type, Enter; dropdowns: click, pick),
then ``done``. It covers the tasks whose golden is the start plus stacks of blocks
(:mod:`scratch_gym.agents.golden`); on others it answers ``failed`` at once (``info`` says why).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from scratch_gym.agents.base import Agent
from scratch_gym.agents.golden import BlockPlan, ScriptPlan, Unsupported, plan_task

CATEGORY_NAMES = {"data": "Variables", "procedures": "My Blocks", "pen": "Pen"}
CANVAS_LEFT, CANVAS_RIGHT, CANVAS_BOTTOM = 320.0, 700.0, 700.0
NEW_SCRIPT_AT = (380.0, 130.0)  # top-left of the first new script; later ones go below
STACK_OVERLAP = 6.0  # px the next block's top goes above the previous block's box bottom
FLYOUT_POINT = (180.0, 400.0)
MAX_SCROLLS = 8


class OracleAgent(Agent):
    """Replays the golden solution of the task given to ``reset`` (needs :meth:`bind`)."""

    name = "oracle"

    def __init__(self, mode: str = "primitive") -> None:
        super().__init__()
        if mode != "primitive":
            raise ValueError(f"the oracle acts in primitive mode, not {mode!r}")
        self.mode = mode
        self.env: Any = None
        self._actions: Iterator[Any] | None = None
        self.unsupported = ""

    def bind(self, env: Any) -> None:
        self.env = env.unwrapped if hasattr(env, "unwrapped") else env

    def reset(self, task: Any = None) -> None:
        super().reset(task)
        self.unsupported = ""
        if task is None:
            raise ValueError("the oracle needs a task with a golden solution")
        try:
            plans = plan_task(task)
        except Unsupported as exc:
            self.unsupported = str(exc)
            self._actions = iter([{"action_type": "failed"}])
            return
        self._actions = self._primitive(plans)

    def act(self, observation: Any, info: dict[str, Any]) -> Any:
        if self._actions is None:
            raise RuntimeError("call reset(task) before act()")
        self.info = {"unsupported": self.unsupported} if self.unsupported else {}
        return next(self._actions, {"action_type": "done"})

    # -- primitive mode ------------------------------------------------------------------------
    @property
    def page(self) -> Any:
        if self.env is None:
            raise RuntimeError("the oracle needs bind(env) to read the editor's geometry")
        page = getattr(self.env, "_page", None)  # not env.page: that would revive a dead page
        if page is None or not page.is_alive():
            raise RuntimeError("the editor page is gone; the environment must reset")
        return page

    def elements(self) -> list[dict[str, Any]]:
        return self.page.call("elements.list")

    def _primitive(self, plans: list) -> Iterator[dict[str, Any]]:
        n_new = 0
        for target in plans:
            if self.page.summary()["editing_target"] != target.name:
                sprite = _find(self.elements(), type="sprite", text=target.name)
                yield _click(sprite)
            for script in target.scripts:
                if script.attach_to is None:
                    n_new += 1
                yield from self._build(script, n_new)
        yield {"action_type": "done"}

    def _build(self, script: ScriptPlan, n_new: int) -> Iterator[dict[str, Any]]:
        prev = script.attach_to
        for block in script.blocks:
            yield from self._show_in_palette(block.opcode)
            els = self.elements()
            source = _find(els, type="flyout_block", opcode=block.opcode)
            known = set(self.page.call("vm.blocks", {}))
            if prev is None:
                top_left = (NEW_SCRIPT_AT[0], NEW_SCRIPT_AT[1] + 160.0 * (n_new - 1))
            else:
                below = _find(els, type="block", block_id=prev)
                top_left = (below["x"], below["y"] + below["h"] - STACK_OVERLAP)
            grab = (source["cx"], source["cy"])
            end = [top_left[0] + grab[0] - source["x"], top_left[1] + grab[1] - source["y"]]
            yield {"action_type": "drag", "start": list(grab), "end": end}
            blocks = self.page.call("vm.blocks", {})
            new = [
                bid
                for bid, b in blocks.items()
                if bid not in known and b["opcode"] == block.opcode and not b.get("shadow")
            ]
            if len(new) != 1:
                raise RuntimeError(f"the drag of {block.opcode} made {len(new)} new blocks")
            yield from self._set_values(new[0], block, blocks)
            prev = new[0]

    def _show_in_palette(self, opcode: str) -> Iterator[dict[str, Any]]:
        from scratch_gym.program import catalogue

        category = catalogue.block(opcode).category
        label = CATEGORY_NAMES.get(category, category.capitalize())
        if _visible_in_flyout(self.elements(), opcode):
            return
        yield _click(_find(self.elements(), type="category", text=label))
        for _ in range(MAX_SCROLLS):
            if _visible_in_flyout(self.elements(), opcode):
                return
            yield {"action_type": "scroll", "start": list(FLYOUT_POINT), "scroll": [0, 200]}
        raise RuntimeError(f"{opcode} did not come into view in the palette")

    def _set_values(self, bid: str, block: BlockPlan, blocks: dict) -> Iterator[dict[str, Any]]:
        seen: dict[str, int] = {}
        for value in block.values:
            nth = seen.get(value.field, 0)
            seen[value.field] = nth + 1
            if _current(blocks, bid, value) == value.value:
                continue
            fields = [
                e
                for e in self.elements()
                if e.get("block_id") == bid
                and e["type"] in ("input", "dropdown")
                and e.get("field") == value.field
            ]
            if len(fields) <= nth:
                raise RuntimeError(f"no editable field {value.field} #{nth} on {block.opcode}")
            target = fields[nth]
            yield _click(target)
            if target["type"] == "input":
                yield {"action_type": "hotkey", "keys": "Control+a"}
                yield {"action_type": "type", "text": value.value}
                yield {"action_type": "key", "keys": "Enter"}
            else:
                text = _display(block.opcode, value)
                yield _click(_find(self.elements(), type="menu_item", text=text))


def _current(blocks: dict, bid: str, value: Any) -> str | None:
    """The value an argument of VM block ``bid`` has now (VM in-memory form)."""
    block = blocks[bid]
    own = (block.get("fields") or {}).get(value.arg) or (block.get("fields") or {}).get(value.field)
    if own:
        return str(own.get("value"))
    slot = (block.get("inputs") or {}).get(value.arg)
    if not slot:
        return None
    shadow = blocks.get(slot.get("block")) or {}
    entry = (shadow.get("fields") or {}).get(value.field)
    return str(entry.get("value")) if entry else None


def _display(opcode: str, value: Any) -> str:
    from scratch_gym.program import catalogue

    return catalogue.block(opcode).arg(value.arg).display_of(value.value)


def _visible_in_flyout(els: list[dict[str, Any]], opcode: str) -> bool:
    return any(
        e["type"] == "flyout_block" and e.get("opcode") == opcode and e["y"] + e["h"] < 715
        for e in els
    )


def _find(els: list[dict[str, Any]], **want: Any) -> dict[str, Any]:
    for e in els:
        if all(e.get(k) == v for k, v in want.items()):
            return e
    raise RuntimeError(f"no element on screen with {want}")


def _click(element: dict[str, Any]) -> dict[str, Any]:
    return {"action_type": "click", "start": [element["cx"], element["cy"]]}
