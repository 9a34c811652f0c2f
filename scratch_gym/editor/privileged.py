"""The one documented channel for privileged agents (oracles): read the live editor, never act.

An oracle may look where a learning agent may not: the bridge's read calls (``bridge``, a
:class:`~scratch_gym.editor.bridge.ReadBridge`: block geometry, the element list, the VM's
blocks), the project and the screen, and the hidden facts the environment publishes for the
episode (a perception question's answer, a drag task's feasible regions). Every
environment built on :class:`~scratch_gym.editor.page_env.PageEnv` hands it out through
``env.unwrapped.privileged()``; agents never reach for the env's page themselves, and every action
still goes through ``env.step``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from scratch_gym.editor.bridge import ReadBridge
from scratch_gym.editor.page import EditorPage


class PageGone(RuntimeError):
    """The editor page died (or was never opened); the environment must reset."""


class Privileged:
    """Read-only access to an environment's editor page and its episode's hidden facts."""

    def __init__(
        self, page: Callable[[], EditorPage | None], facts: Callable[[], Mapping[str, Any]]
    ) -> None:
        self._page = page
        self._facts = facts
        self.bridge = ReadBridge(self)  # typed read calls: ``channel.bridge.geometry_flyout()``

    @property
    def alive(self) -> bool:
        """Whether the page is open and answering (asking never revives a dead page)."""
        page = self._page()
        try:
            return page is not None and page.is_alive()
        except Exception:  # noqa: BLE001 - asking a dead page can fail too
            return False

    @property
    def died(self) -> bool:
        """Whether a page was opened and no longer answers."""
        return self._page() is not None and not self.alive

    def facts(self) -> dict[str, Any]:
        """What the environment keeps from the agent this episode (see each env's docs)."""
        return dict(self._facts())

    def call(self, name: str, args: dict[str, Any] | None = None) -> Any:
        """A bridge call (``geometry.*``, ``elements.list``, ``composite.blocks``, ...)."""
        return self._live().call(name, args)

    def project(self) -> dict[str, Any]:
        """The editor's project.json as the VM holds it now."""
        return self._live().project_json()

    def screenshot(self) -> Any:
        """The screen (720 x 1280 x 3 uint8)."""
        return self._live().screenshot()

    def _live(self) -> EditorPage:
        page = self._page()
        if page is None or not page.is_alive():
            raise PageGone("the editor page is gone; the environment must reset")
        return page
