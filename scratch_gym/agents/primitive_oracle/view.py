"""The primitive oracle's one privileged channel: what it reads from the live editor.

An oracle may look where an agent may not: the editor's geometry (block boxes, connection points,
input slots, dropdown options; ``bridge/geometry.js``), the element list (``elements.list``) and
the editing target's VM blocks. :class:`EditorView` is the only place the oracle reads the page;
it never acts on it (every action goes through ``env.step``).
"""

from __future__ import annotations

from typing import Any

from scratch_gym.agents.base import privileged_channel
from scratch_gym.agents.composite_plan import BlockTree, TreeReader


class EditorView:
    """Read-only access to the editor page of a bound environment, through its
    :meth:`~scratch_gym.editor.page_env.PageEnv.privileged` channel."""

    def __init__(self, env: Any) -> None:
        self.channel = privileged_channel(env)
        self.bridge = self.channel.bridge  # the typed read calls (editor/bridge.py's ReadBridge)

    def elements(self) -> list[dict[str, Any]]:
        """The element list (screen boxes of buttons, categories, menu items, blocks, ...)."""
        return self.bridge.elements_list()

    def workspace(self) -> dict[str, Any]:
        """The visible code area, every workspace block's geometry, and prototype arguments."""
        return self.bridge.geometry_workspace()

    def block(self, block_id: str) -> dict[str, Any] | None:
        """One workspace block's geometry (grab point, connections, inputs), or None."""
        return self.bridge.geometry_block(block_id)

    def flyout(self) -> list[dict[str, Any]]:
        """The palette's blocks with their geometry."""
        return self.bridge.geometry_flyout()

    def options(self, block_id: str, field: str) -> list[list[str]] | None:
        """A dropdown field's ``[label, value]`` options."""
        return self.bridge.geometry_options(block_id, field)

    def colour_sliders(self) -> list[dict[str, Any]]:
        """The open colour picker's sliders: track box, range and value (Color, Saturation,
        Brightness); [] when no picker is open."""
        return self.bridge.geometry_colour_sliders()

    def editing(self) -> bool:
        """Whether a field's text editor is open and has the focus."""
        return self.bridge.geometry_editing()

    def vm(self) -> dict[str, Any]:
        """The editing target: ``{target, is_stage, blocks}`` (the VM's blocks)."""
        return self.bridge.composite_blocks()

    def scripts(self) -> list[list[BlockTree]]:
        return TreeReader(self.vm()["blocks"], vm=True).scripts()

    def node(self, block_id: str) -> BlockTree:
        return TreeReader(self.vm()["blocks"], vm=True).node(block_id)

    def screenshot(self) -> Any:
        """The screen as the agent's observation shows it (H x W x 3 uint8)."""
        return self.channel.screenshot()

    def project(self) -> dict[str, Any]:
        return self.channel.project()
