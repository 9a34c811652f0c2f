"""What every action model provides to the environment."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from gymnasium import spaces

from scratch_gym.editor.page import EditorPage


class ActionModel(Protocol):
    """Turns an agent's raw action into editor input. ``parse`` raises ActionError on bad input."""

    space: spaces.Space
    #: Animation frames the editor must stay still after this kind of action, whatever is
    #: observed: mouse input needs them (2); semantic edits only need the workspace to agree
    #: with the VM and the editor's deferred updates to have run (0). The observation model adds
    #: its own wait for paint (``paint_frames``); a step waits for the larger of the two.
    settle_frames: int
    #: True when nothing shows the flyout between steps (text observations): the editor then
    #: rebuilds it only when something looks at it (see bridge/toolbox.js).
    defers_flyout: bool

    def parse(self, raw: Any) -> Any: ...

    def execute(self, page: EditorPage, parsed: Any) -> dict[str, Any]:
        """Perform the parsed action; return what info should report about it."""
        ...

    def ends_episode(self, parsed: Any) -> bool:
        """True for `done` / `failed`."""
        ...

    def runs_scripts(self, parsed: Any) -> bool:
        """True when the action may start scripts, so the VM's frame loop must run during it."""
        ...

    def use_elements(self, source: Callable[[], Sequence[Any] | None]) -> None:
        """Where an action's element index is looked up: ``source()`` is the element list of the
        latest observation. A model without element actions ignores it."""
        ...
