"""``composite/execute``: scratch-bench-api's composite API names and arguments, in their envelope.

``get_blocks_pseudocode`` answers their text and ``idxToBlock``
(:mod:`scratch_gym.observations.scratchworld_pseudocode`) and keeps the index -> block id map
for the session, as their service does: the indices of ``connect_blocks``, ``set_block_field``,
``detach_blocks`` and ``delete_block`` are read from it (``INVALID_STATE`` before the first
``get_blocks_pseudocode`` or after an edit that renumbers, ``NOT_FOUND`` for an index it lacks).
Each edit runs through scratch-gym's own composite actions
(:class:`~scratch_gym.actions.composite.CompositeActionModel`): their arguments are renamed
(``blockType`` -> ``opcode``, ``creation.variableName`` -> ``variable``, ``sourceBlockIndex`` ->
``source``, ``placement.kind`` -> ``placement``, ``placement.inputName`` -> ``input``,
``blockIndex`` -> ``index``, ``fieldName`` -> ``field``) and their block numbers become the block
ids, then scratch-gym's numbers. ``custom_js`` (the caller's own page JavaScript) is refused
unless the service runs with ``--allow-js``. Other names answer ``UNSUPPORTED``.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

from scratch_gym.actions.composite import CompositeActionModel
from scratch_gym.actions.errors import ActionError
from scratch_gym.editor.page import BridgeError, EditorPage
from scratch_gym.observations.scratchworld_pseudocode import scratchworld_pseudocode
from scratch_gym.program.numbering import number_blocks
from scratch_gym.serve import envelope
from scratch_gym.serve.request_bodies import CompositeRequest

JS_REFUSED = "custom_js is refused: the service runs without --allow-js"
# Their catalogue's arguments per API: what ``executed_action.args`` keeps.
EXECUTED_ARGS: dict[str, dict[str, Any]] = {
    "select_sprite": {"name": None},
    "add_variable": {"name": None, "scope": None},
    "add_list": {"name": None, "scope": None},
    "add_block": {"blockType": None, "creation": {"variableName": None, "listName": None}},
    "connect_blocks": {
        "sourceBlockIndex": None,
        "targetBlockIndex": None,
        "placement": {"kind": None, "inputName": None},
    },
    "detach_blocks": {"blockIndex": None},
    "set_block_field": {"blockIndex": None, "fieldName": None, "value": None},
    "delete_block": {"blockIndex": None},
}


class JsRefused(PermissionError):
    """custom_js without --allow-js (403)."""


class Failed(Exception):
    """An answer with ``success: false`` and their error ``code``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class CompositeState:
    """A session's composite state: the numbering of the last ``get_blocks_pseudocode``."""

    idx_to_block: dict[str, dict[str, Any]] | None = None
    actions: CompositeActionModel = field(default_factory=CompositeActionModel)


def _kept(args: Any, schema: dict[str, Any] | None) -> dict[str, Any]:
    if not isinstance(args, dict) or schema is None:
        return {}
    out: dict[str, Any] = {}
    for key, sub in schema.items():
        if key in args:
            value = args[key]
            out[key] = _kept(value, sub) if isinstance(sub, dict) and isinstance(value, dict) else value  # fmt: skip
    return out


def _positive(args: dict[str, Any], name: str) -> int:
    value = args.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise Failed("INVALID_ARG", f"'{name}' must be a positive integer")
    return value


def _name(args: dict[str, Any], *keys: str) -> str:
    for key in keys:
        value = args.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


NUMBERED_LINE = re.compile(r"^(\s*#(\d+) .*)$", re.MULTILINE)


def _with_ids(text: str, idx: dict[str, dict[str, Any]]) -> str:
    """``#<n> ...`` lines with `` [ID: <block id>]`` appended."""

    def add(m: re.Match[str]) -> str:
        entry = idx.get(m.group(2))
        return f"{m.group(1)} [ID: {entry['id']}]" if entry else m.group(1)

    return NUMBERED_LINE.sub(add, text)


def _screen_box(box: Any) -> dict[str, float] | None:
    if not box:
        return None
    x, y, w, h = (float(box[k]) for k in ("x", "y", "w", "h"))
    return {"x": x, "y": y, "left": x, "top": y, "right": x + w, "bottom": y + h, "width": w, "height": h}  # fmt: skip


class Composite:
    """One ``composite/execute`` call on the session's page (on its worker thread)."""

    def __init__(self, page: EditorPage, state: CompositeState, api: str, args: dict[str, Any]):
        self.page = page
        self.state = state
        self.api = api
        self.args = args

    def block_id(self, index: int, what: str = "Block") -> str:
        cached = self.state.idx_to_block
        if cached is None:
            raise Failed("INVALID_STATE", "No cached block data. Call get_blocks_pseudocode first.")
        entry = cached.get(str(index))
        if entry is None:
            raise Failed("NOT_FOUND", f"{what} not found at index {index}")
        return entry["id"]

    def our_index(self, block_id: str) -> int:
        """scratch-gym's number of the block ``block_id`` now."""
        index = number_blocks(self.page.bridge.composite_blocks()["blocks"]).index_of(block_id)
        if index is None:
            raise Failed("NOT_FOUND", f"Block not found: {block_id}")
        return index

    def run(self, api: str, args: dict[str, Any], code: str = "EXECUTION_ERROR") -> str:
        actions = self.state.actions
        try:
            parsed = actions.parse({"api": api, "args": args})
            return actions.execute(self.page, parsed)["action_result"]
        except ActionError as exc:
            raise Failed(code, str(exc)) from None

    # -- APIs (each returns the answer's data) -------------------------------------------------
    def get_blocks_pseudocode(self) -> dict[str, Any]:
        data = scratchworld_pseudocode(self.page.bridge.composite_scratchworld_view())
        self.state.idx_to_block = data["idxToBlock"]
        return data

    def get_blocks_structure(self) -> dict[str, Any]:
        """Their structure view: ``get_blocks_pseudocode``'s numbering, each block line with
        ``[ID: id]``, and per block the VM's ``parent``, ``next``, ``inputs`` and ``fields``
        and its ``screenBoundingBox`` (``idxToBlock`` and ``idToBlock``). The session's index
        map is left as it is."""
        view = self.page.bridge.composite_scratchworld_view()
        data = scratchworld_pseudocode(view)
        raw = view["blocks"]
        boxes = {b["id"]: b for b in self.page.bridge.workspace_block_boxes(flyout=False)}
        idx: dict[str, dict[str, Any]] = {}
        for i, entry in data["idxToBlock"].items():
            block = raw.get(entry["id"]) or {}
            idx[i] = {
                **entry,
                "screenBoundingBox": _screen_box(boxes.get(entry["id"])),
                "parent": block.get("parent"),
                "next": block.get("next"),
                "inputs": block.get("inputs") or {},
                "fields": block.get("fields") or {},
            }
        return {
            "pseudocode": _with_ids(data["pseudocode"], idx),
            "idxToBlock": idx,
            "idToBlock": {e["id"]: e for e in idx.values()},
            "isStage": bool(view["target"]["is_stage"]),
            "targetName": view["target"]["name"],
        }

    def select_sprite(self) -> dict[str, Any]:
        name = _name(self.args, "name")
        if not name:
            raise Failed("INVALID_ARG", "'name' is required")
        self.run("select_sprite", {"name": name}, "NOT_FOUND")
        self.state.idx_to_block = None
        return {"name": name}

    def select_stage(self) -> dict[str, Any]:
        self.run("select_stage", {})
        self.state.idx_to_block = None
        return {}

    def add_variable(self) -> dict[str, Any]:
        name, scope = _name(self.args, "name"), _name(self.args, "scope")
        if not name:
            raise Failed("INVALID_ARG", "'name' is required")
        if scope not in ("sprite", "all"):
            raise Failed("INVALID_ARG", "'scope' must be 'sprite' or 'all'")
        self.run(self.api, {"name": name, "scope": scope})
        return {"created": {"name": name, "scope": scope}}

    def add_block(self) -> dict[str, Any]:
        opcode = _name(self.args, "blockType")
        if not opcode:
            raise Failed("INVALID_ARG", "'blockType' is required")
        creation = self.args.get("creation") if isinstance(self.args.get("creation"), dict) else {}
        ours: dict[str, Any] = {"opcode": opcode}
        for theirs, mine in (("variableName", "variable"), ("listName", "list")):
            if _name(creation, theirs):
                ours[mine] = _name(creation, theirs)
        self.run("add_block", ours, "INVALID_TYPE")
        self.state.idx_to_block = None
        return {"blockId": self.state.actions.made_id, "connected": False}

    def connect_blocks(self) -> dict[str, Any]:
        source, target = _positive(self.args, "sourceBlockIndex"), _positive(self.args, "targetBlockIndex")  # fmt: skip
        placement = self.args.get("placement")
        kind = placement.get("kind") if isinstance(placement, dict) else None
        if not kind:
            raise Failed("INVALID_ARG", "'placement.kind' is required")
        input_name = placement.get("inputName")
        if kind in ("statement_into", "value_into") and not input_name:
            raise Failed("INVALID_ARG", "'inputName' is required when kind is 'statement_into' or 'value_into'")  # fmt: skip
        source_id = self.block_id(source, "Source block")
        target_id = self.block_id(target, "Target block")
        ours = {"source": self.our_index(source_id), "target": self.our_index(target_id), "placement": kind}  # fmt: skip
        if input_name:
            ours["input"] = input_name
        self.run("connect_blocks", ours)
        self.state.idx_to_block = None
        out = {"connected": True, "kind": kind, "sourceId": source_id, "targetId": target_id}
        return {**out, **({"inputName": input_name} if input_name else {})}

    def detach_blocks(self) -> dict[str, Any]:
        block_id = self.block_id(_positive(self.args, "blockIndex"))
        self.run("detach_blocks", {"index": self.our_index(block_id)})
        self.state.idx_to_block = None
        return {"detached": True, "blockId": block_id}

    def set_block_field(self) -> dict[str, Any]:
        index = _positive(self.args, "blockIndex")
        field_name = self.args.get("fieldName")
        if not isinstance(field_name, str) or not field_name:
            raise Failed("INVALID_ARG", "'fieldName' is required")
        if "value" not in self.args:
            raise Failed("INVALID_ARG", "'value' is required")
        value = self.args["value"]
        block_id = self.block_id(index)
        ours = {"index": self.our_index(block_id), "field": field_name, "value": value}
        self.run("set_block_field", ours, "SET_FAILED")
        return {
            "updated": 1, "blockIndex": index, "blockId": block_id, "fieldName": field_name,
            "value": value, "originalValue": value, "translatedValue": value,
        }  # fmt: skip

    def delete_block(self) -> dict[str, Any]:
        index = _positive(self.args, "blockIndex" if "blockIndex" in self.args else "index")
        block_id = self.block_id(index)
        entry = dict(self.state.idx_to_block[str(index)])  # type: ignore[index]
        self.run("delete_block", {"index": self.our_index(block_id)})
        self.state.idx_to_block = None
        return {"deleted": True, "index": index, "blockId": block_id, "blockInfo": entry}

    def run_project(self) -> dict[str, Any]:
        self.page.bridge.composite_run()
        return {}

    def stop_project(self) -> dict[str, Any]:
        self.page.bridge.composite_stop()
        return {}


SERVED = (
    "get_blocks_pseudocode", "get_blocks_structure", "select_sprite", "select_stage",
    "add_variable", "add_list",
    "add_block", "connect_blocks", "detach_blocks", "set_block_field", "delete_block",
    "run_project", "stop_project",
)  # fmt: skip


def execute(
    page: EditorPage,
    session_id: str,
    req: CompositeRequest,
    allow_js: bool,
    state: CompositeState | None = None,
) -> dict[str, Any]:
    """On the worker: one composite call, answered in the envelope."""
    started = time.perf_counter()
    api = (req.api or "").strip()
    args = dict(req.args) if isinstance(req.args, dict) else {}
    state = state if state is not None else CompositeState()

    def ok(executed: dict[str, Any], data: dict[str, Any] | None = None) -> dict[str, Any]:
        return envelope.ok(api, args, executed, session_id, started, data)

    def failed(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
        executed = _kept(args, EXECUTED_ARGS.get(api))
        return envelope.failed(api, args, executed, session_id, started, code, message, details)

    if not api:
        return failed("INVALID_ARG", "Missing 'api' field")
    try:
        if api == "custom_js":
            if not allow_js:
                raise JsRefused(JS_REFUSED)
            source = str(args.get("fn") or args.get("function") or args.get("code") or "").strip()
            if not source:
                return failed("INVALID_ARG", "'fn' (JS function source) is required")
            executed = {"fn": source, **({"payload": args["payload"]} if "payload" in args else {})}
            out = page.bridge.page_custom_js(source, args.get("payload"))
            if not out.get("ok"):
                return envelope.failed(
                    api, args, executed, session_id, started, str(out.get("code")),
                    str(out.get("error")),
                )  # fmt: skip
            value = out.get("value")
            return ok(executed, value if isinstance(value, dict) else {"value": value})
        if api not in SERVED:
            return failed("UNSUPPORTED", f"Unsupported api: {api}")
        data = getattr(Composite(page, state, api, args), api)()
        return ok(_kept(args, EXECUTED_ARGS.get(api)), data)
    except Failed as exc:
        return failed(exc.code, str(exc))
    except BridgeError as exc:
        return failed("RUNTIME_ERROR", "Execution failed", {"api": api, "error": f"{exc.kind}: {exc}"})  # fmt: skip
