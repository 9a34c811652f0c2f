"""The part every environment shares: it owns one editor page, opened on first use."""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from scratch_gym.editor.browser import BrowserSession
from scratch_gym.editor.page import EditorPage
from scratch_gym.editor.privileged import Privileged


class PageEnv(gym.Env):
    """A Gymnasium environment with one editor page: opened lazily, replaced when it died, closed by
    ``close()`` (idempotent; the last page of the process closes the browser)."""

    render_mode: str | None = None
    _browser: BrowserSession | None = None
    _page: EditorPage | None = None

    @property
    def page(self) -> EditorPage:
        """The editor page: opened on first use, replaced if it died."""
        if self._page is None:
            self._page = EditorPage(self._browser).open()
        elif not self._page.is_alive():
            self._page.recover()
        return self._page

    def privileged(self) -> Privileged:
        """The channel for privileged agents (oracles): read-only access to this env's editor page
        and to :meth:`hidden_facts`; see :mod:`scratch_gym.editor.privileged`."""
        return Privileged(lambda: self._page, self.hidden_facts)

    def hidden_facts(self) -> dict[str, Any]:
        """What the episode keeps from the agent, for privileged agents only (default: nothing)."""
        return {}

    def render(self) -> Any:
        """With ``render_mode="rgb_array"``: the current screen (720x1280x3 uint8)."""
        if self.render_mode != "rgb_array" or self._page is None:
            return None
        return self._page.screenshot()

    def close(self) -> None:
        if self._page is not None:
            self._page.close()
            self._page = None
