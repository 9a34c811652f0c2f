"""The typed facade over the page's JavaScript bridge: one Python method per entry point.

Code outside ``editor/`` never passes a bridge function's name as a string: it calls
``page.bridge.vm_blocks(...)`` (an :class:`~scratch_gym.editor.page.EditorPage`'s
:class:`Bridge`) or ``channel.bridge.geometry_flyout()`` (a privileged channel's
:class:`ReadBridge`). Each method names one ``SG.register('...')`` function of
``web/scratch-editor/bridge/*.js`` (``tests/docs/test_bridge.py`` checks that each is registered),
so renaming a JavaScript function fails a test instead of a caller. Methods are named after the
JavaScript function (``single_drag.hitTest`` -> ``single_drag_hit_test``). A failure in the page
raises :class:`~scratch_gym.editor.page.BridgeError` as ``EditorPage.call`` does.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypedDict

Blocks = dict[str, dict[str, Any]]  # block id -> the VM's block (opcode, inputs, fields, ...)


class Caller(Protocol):
    """What a read bridge calls through (``EditorPage``, ``Privileged``)."""

    def call(self, name: str, args: dict[str, Any] | None = None) -> Any: ...


class Transport(Caller, Protocol):
    """What a full bridge calls through: ``call`` and its stoppable form (``EditorPage``)."""

    def call_within(self, name: str, args: dict[str, Any] | None, timeout_s: float) -> Any: ...


class EditingBlocks(TypedDict):
    """The editing target and its blocks as the VM holds them (``composite.blocks``)."""

    target: str | None
    is_stage: bool
    blocks: Blocks


class CompositeObservation(EditingBlocks):
    """``composite.observe``: the editing blocks plus what the pseudocode observation shows."""

    targets: list[dict[str, Any]]  # name, is_stage, x, y, direction, size, visible, costume
    variables: list[dict[str, Any]]  # name, type, scope, value
    slots: dict[str, list[dict[str, Any]]]  # block id -> its inputs and fields
    running: int  # running threads


class Edit(EditingBlocks, total=False):
    """A composite edit's result: the editing blocks after it, and what it made."""

    id: str  # the new block (add*)
    name: str  # the new variable's name (addVariable)
    removed: int  # blocks deleted (delete)


class BlockBox(TypedDict):
    """A block's screen box (``workspace.blockBoxes``)."""

    id: str
    opcode: str
    in_flyout: bool
    shadow: bool
    x: float
    y: float
    w: float
    h: float


class ViewState(TypedDict):
    """The workspace's scroll and zoom, the flyout's scroll and the editor tab."""

    scroll_x: float
    scroll_y: float
    scale: float
    flyout_scroll_y: float
    tab: int


class ColourSlider(TypedDict):
    """One slider of the open colour picker: its track on screen, range and value."""

    x: float
    y: float
    w: float
    h: float
    min: float
    max: float
    value: float


class DraggedBlock(TypedDict):
    """The block the last drag picked up (``single_drag.dragged``)."""

    id: str
    opcode: str
    from_flyout: bool


class Undone(TypedDict):
    """``single_drag.undo``: whether the blocks are back to the armed state."""

    ok: bool
    undone: int
    frames: int


class Prepared(TypedDict):
    """``eval.prepare``: the prepared project's fingerprint (SHA-256) and size."""

    fingerprint: str
    bytes: int


class EvalRun(TypedDict):
    """``eval.run``: the operations' values and the evaluation VM's snapshot."""

    values: list[Any]
    snapshot: dict[str, Any]


# The JavaScript names of ReadBridge's calls (what serve's oracle channel may run on a page).
READ_CALLS = frozenset(
    {
        "elements.list",
        "elements.blockInfo",
        "workspace.blockBoxes",
        "geometry.workspace",
        "geometry.block",
        "geometry.flyout",
        "geometry.options",
        "geometry.colourSliders",
        "geometry.editing",
        "composite.blocks",
        "composite.observe",
        "composite.scratchworldView",
        "vm.blocks",
        "view.state",
        "project.json",
    }
)


class ReadBridge:
    """The bridge's read-only calls: the element list, geometry, the VM's blocks, the view.

    What a privileged agent may use (``Privileged.bridge``); nothing here changes the editor
    beyond rebuilding a deferred flyout."""

    def __init__(self, caller: Caller) -> None:
        self._caller = caller

    def _call_json(self, name: str, args: dict[str, Any] | None = None) -> Any:
        """A call whose bridge function returns JSON text (large results: Playwright checks and
        converts every value of a returned object in Python, which costs far more than parsing
        the text)."""
        return json.loads(self._caller.call(name, args))

    # -- elements (bridge/elements.js) ----------------------------------------------------------
    def elements_list(self) -> list[dict[str, Any]]:
        """The element list: screen boxes of buttons, categories, menu items, blocks, ...
        (sent as JSON text: faster than Playwright's serialization of its objects)."""
        return self._call_json("elements.list")

    def elements_block_info(self) -> list[dict[str, Any]]:
        """Every workspace block as drawn: box, visible part, next/parent/root, field texts."""
        return self._caller.call("elements.blockInfo")

    def workspace_block_boxes(self, *, flyout: bool = True, canvas: bool = True) -> list[BlockBox]:
        """Screen boxes of the flyout's and/or the canvas's blocks."""
        return self._caller.call("workspace.blockBoxes", {"flyout": flyout, "canvas": canvas})

    # -- geometry (bridge/geometry.js) ----------------------------------------------------------
    def geometry_workspace(self) -> dict[str, Any]:
        """The visible code area, every workspace block's geometry, and prototype arguments."""
        return self._caller.call("geometry.workspace")

    def geometry_block(self, block_id: str) -> dict[str, Any] | None:
        """One workspace block's geometry (grab point, connections, inputs), or None."""
        return self._caller.call("geometry.block", {"id": block_id})

    def geometry_flyout(self) -> list[dict[str, Any]]:
        """The palette's blocks with their geometry."""
        return self._caller.call("geometry.flyout")

    def geometry_options(self, block_id: str, field: str) -> list[list[str]] | None:
        """A dropdown field's ``[label, value]`` options (None: no such dropdown)."""
        return self._caller.call("geometry.options", {"id": block_id, "field": field})

    def geometry_colour_sliders(self) -> list[ColourSlider]:
        """The open colour picker's sliders; [] when no picker is open."""
        return self._caller.call("geometry.colourSliders")

    def geometry_editing(self) -> bool:
        """Whether a field's text editor is open and has the focus."""
        return bool(self._caller.call("geometry.editing"))

    # -- blocks and view ------------------------------------------------------------------------
    def composite_blocks(self) -> EditingBlocks:
        """The editing target and its VM blocks."""
        return self._caller.call("composite.blocks")

    def composite_observe(self) -> CompositeObservation:
        """The editing blocks, targets, variables in scope, block slots and running threads."""
        return self._caller.call("composite.observe")

    def composite_scratchworld_view(self) -> dict[str, Any]:
        """ScratchWorld's composite view of the editing target: VM blocks, the VM's script
        order, dropdown labels and boxes per block, targets, variables, costumes and sounds."""
        return self._caller.call("composite.scratchworldView")

    def vm_blocks(self, target: str | None = None) -> Blocks:
        """The VM's blocks of the sprite or stage ``target`` (default: the editing target)."""
        return self._caller.call("vm.blocks", {} if target is None else {"target": target})

    def project_json(self) -> dict[str, Any]:
        """The VM's project as JSON (every target's blocks, variables, costumes, sounds)."""
        return self._call_json("project.json")

    def view_state(self) -> ViewState:
        """The workspace's scroll and zoom, the flyout's scroll and the editor tab."""
        return self._caller.call("view.state")

    # -- single drag (bridge/single_drag.js) ----------------------------------------------------
    def single_drag_dragged(self) -> DraggedBlock | None:
        """The block the last drag since ``single_drag_arm`` picked up, or None."""
        return self._caller.call("single_drag.dragged")

    def single_drag_hit_test(
        self, block_id: str, points: Sequence[Sequence[float]]
    ) -> list[list[float]]:
        """The ``points`` where a press would drag block ``block_id``."""
        return self._caller.call("single_drag.hitTest", {"id": block_id, "points": points})

    def single_drag_geometry(self) -> dict[str, Any]:
        """Connection geometry in screen px: canvas and flyout blocks, snap radii, scales (sent
        as JSON text)."""
        return self._call_json("single_drag.geometry")

    def single_drag_capture(self, step: int) -> dict[str, Any]:
        """What decides a drag: the block a press would pick at each point of a ``step`` px grid
        (``labels``, ``rows``, ``cols``, ``picks``) and the editor's drag constants (sent as
        JSON text: Playwright's check of each of the grid's numbers took seconds)."""
        return self._call_json("single_drag.capture", {"step": step})


class Bridge(ReadBridge):
    """Every bridge function that code outside ``editor/`` uses: the reads, and the calls that
    change the editor (view, composite edits, drag tracking) or run evaluations."""

    def __init__(self, transport: Transport) -> None:
        super().__init__(transport)
        self._transport = transport

    def _call(self, name: str, args: dict[str, Any], timeout_s: float | None = None) -> Any:
        if timeout_s is None:
            return self._transport.call(name, args)
        return self._transport.call_within(name, args, timeout_s)

    # -- view (bridge/workspace.js) -------------------------------------------------------------
    def view_reset(self) -> ViewState:
        """Code tab, Motion category, flyout at its top, default scroll and zoom."""
        return self._call("view.reset", {})

    # -- composite edits (bridge/composite.js); each returns the editing blocks after it --------
    def composite_select(self, name: str | None = None, *, stage: bool = False) -> str:
        """Make the sprite ``name`` (or the stage) the editing target; returns its name."""
        return self._call("composite.select", {"stage": True} if stage else {"name": name})

    def composite_add_variable(self, name: str, type: str, local: bool) -> Edit:
        """Make a variable (``type`` "") or list ("list"), for this sprite only when ``local``."""
        return self._call("composite.addVariable", {"name": name, "type": type, "local": local})

    def composite_add_block(self, spec: Mapping[str, Any], names: Mapping[str, Any]) -> Edit:
        """Add a block of the catalogue ``spec`` as a new script; ``names`` picks its variable,
        list and broadcast."""
        return self._call("composite.addBlock", {"spec": spec, "names": names})

    def composite_add_definition(
        self, proccode: str, names: Sequence[str], kinds: Sequence[str], warp: bool
    ) -> Edit:
        """Add a custom block's define block."""
        args = {"proccode": proccode, "names": names, "kinds": kinds, "warp": warp}
        return self._call("composite.addDefinition", args)

    def composite_add_call(self, proccode: str) -> Edit:
        """Add a call of the custom block ``proccode``."""
        return self._call("composite.addCall", {"proccode": proccode})

    def composite_add_argument(self, opcode: str, name: str) -> Edit:
        """Add an argument reporter (``opcode``) of a custom block's input ``name``."""
        return self._call("composite.addArgument", {"opcode": opcode, "name": name})

    def composite_connect(
        self, source: str, target: str, placement: str, input: str | None = None
    ) -> Edit:
        """Connect block ``source`` to ``target`` (``placement``: how; ``input``: into which)."""
        args = {"source": source, "target": target, "placement": placement, "input": input}
        return self._call("composite.connect", args)

    def composite_detach(self, block_id: str) -> Edit:
        """Unplug a block (with the blocks below it) into a new script."""
        return self._call("composite.detach", {"id": block_id})

    def composite_delete(self, block_id: str) -> Edit:
        """Delete a block with what is inside it (``removed``: how many blocks)."""
        return self._call("composite.delete", {"id": block_id})

    def composite_set_field(self, block_id: str, name: str, value: Any) -> Edit:
        """Set a field or literal input of a block as the editor would."""
        return self._call("composite.setField", {"id": block_id, "name": name, "value": value})

    def composite_run(self) -> dict[str, int]:
        """Click the green flag; ``threads``: scripts started."""
        return self._call("composite.run", {})

    def composite_stop(self) -> bool:
        """Stop all scripts."""
        return self._call("composite.stop", {})

    # -- single drag (bridge/single_drag.js) ----------------------------------------------------
    def single_drag_view(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """Set a drag task's view (``DragView.to_args()``); returns the view as set."""
        return self._call("single_drag.view", dict(view))

    def single_drag_arm(self, *, keep_baseline: bool = False) -> dict[str, int]:
        """Remember the blocks as the state to restore (unless ``keep_baseline``) and watch for
        the next drag."""
        return self._call("single_drag.arm", {"keep_baseline": True} if keep_baseline else {})

    def single_drag_undo(self) -> Undone:
        """Undo everything since ``single_drag_arm``."""
        return self._call("single_drag.undo", {})

    def project_sb3(self) -> bytes:
        """The editor's project as .sb3 bytes (what File > Save to your computer writes)."""
        return base64.b64decode(self._call("project.sb3", {}))

    def page_custom_js(self, fn: str, payload: Any = None) -> dict[str, Any]:
        """Run a caller's JavaScript function source ``fn({vm, SB, ws, payload})`` in the page:
        ``{ok, value | code, error}``. Arbitrary code: only for callers that allow it."""
        return self._call("page.customJs", {"fn": fn, "payload": payload})

    def view_stage_size(self, size: str | None = None) -> str:
        """The GUI's stage size, "large" or "small"; set first when ``size`` is given."""
        return self._call("view.stageSize", {} if size is None else {"size": size})

    # -- evaluation (bridge/evaluation.js, bridge/scratchworld.js) ------------------------------
    def eval_prepare(self, project: str | bytes | Mapping[str, Any] | None = None) -> Prepared:
        """Fix the project that the following tests run on: the editor's current one (None), a
        project JSON (text or dict) or an .sb3."""
        if project is None:
            args: dict[str, Any] = {}
        elif isinstance(project, bytes):
            args = {"sb3_base64": base64.b64encode(project).decode("ascii")}
        else:
            args = {"json": project}
        return self._call("eval.prepare", args)

    def eval_run(
        self,
        ops: list[dict[str, Any]],
        *,
        wall_ms: int,
        begin: dict[str, Any] | None = None,
        timeout_s: float | None = None,
    ) -> EvalRun:
        """Run a test's operations (starting the test with ``begin``); the page stops after
        ``wall_ms``. With ``timeout_s`` a call that never returns is stopped
        (:class:`~scratch_gym.editor.page.CallTimeout`; repair with :meth:`eval_recover`)."""
        args: dict[str, Any] = {"ops": ops, "wall_ms": wall_ms}
        if begin is not None:
            args["begin"] = begin
        return self._call("eval.run", args, timeout_s)

    def eval_recover(self) -> dict[str, bool]:
        """Repair the evaluation state after a stopped call."""
        return self._call("eval.recover", {})

    def eval_scratchworld(self, args: Mapping[str, Any], timeout_s: float) -> dict[str, Any]:
        """Run a ScratchWorld evaluation script on the prepared project (``args``: function,
        script, utils, config, timeout_ms, wall_ms, time, stage); stopped after ``timeout_s``.
        Returns ``{ok, value | error, wall_ms, virtual_ms?}``."""
        return self._call("eval.scratchworld", dict(args), timeout_s)
