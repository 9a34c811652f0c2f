"""The part every environment shares: one editor page, opened on first use, and its life cycle.

Every page-backed environment starts an episode the same way (:meth:`PageEnv.start_episode`:
the memory guard and the settings check may replace the page; a page that died is recovered and
the set-up runs again) and reports a page that dies during a step the same way
(:meth:`PageEnv.dead_page_step`: the episode is truncated, ``info["infrastructure_error"]`` says
why, and the next ``reset()`` recovers). A ``reset()`` that raises leaves the environment usable,
also through ``gym.make``'s wrappers (:func:`guard_reset`).
"""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Callable
from typing import Any, TypeVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.wrappers import PassiveEnvChecker

from scratch_gym.editor.browser import BrowserSession
from scratch_gym.editor.page import EditorPage, PageDeadError
from scratch_gym.editor.privileged import Privileged

T = TypeVar("T")


class PageEnv(gym.Env):
    """A Gymnasium environment with one editor page: opened lazily, replaced when it died, closed by
    ``close()`` (idempotent; the last page of the process closes the browser)."""

    render_mode: str | None = None
    _browser: BrowserSession | None = None
    _page: EditorPage | None = None
    _reset_error: str | None = None  # why the last reset() raised; None after a good one

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Each subclass's ``reset`` is wrapped by :func:`guard_reset`."""
        super().__init_subclass__(**kwargs)
        reset = cls.__dict__.get("reset")
        if reset is not None:
            cls.reset = guard_reset(reset)  # type: ignore[method-assign]

    def check_reset(self, begun: bool = True) -> None:
        """For ``step``: RuntimeError when the last ``reset()`` raised (its episode never began),
        or when no episode has ``begun`` (no reset yet)."""
        if self._reset_error is not None:
            raise RuntimeError(
                f"the last reset() failed ({self._reset_error}); call reset() before step()"
            )
        if not begun:
            raise RuntimeError("call reset() before step()")

    @property
    def page(self) -> EditorPage:
        """The editor page: opened on first use, replaced if it died."""
        if self._page is None:
            self._page = EditorPage(self._browser).open()
        elif not self._page.is_alive():
            self._page.recover()
        return self._page

    @property
    def episode_page(self) -> EditorPage:
        """The page an episode runs on, for use during a step: a page that died is not replaced
        here, since the episode's editor state went with it (PageDeadError; reset() recovers)."""
        if self._page is None or not self._page.is_alive():
            raise PageDeadError("the editor page is gone")
        return self._page

    def start_episode(self, set_up: Callable[[EditorPage], T]) -> T:
        """Run an episode's set-up (``set_up(page)``) on a page fit for it: the page is replaced
        first when its heap grew past the memory guard's limit or an agent changed the editor's
        settings; if the page dies during the set-up, it is recovered and the set-up runs again."""
        page = self.page
        page.refresh_if_grown()
        page.refresh_if_settings_changed()
        try:
            return set_up(page)
        except PageDeadError:
            page.recover()
            return set_up(page)

    def dead_page_step(
        self, exc: Exception, started: float, observation: Any = None
    ) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The step's return when the page died during it: ``observation`` (default: the
        observation space's blank), reward 0, truncated, and ``info`` that names the failure."""
        info = {
            "last_action_error": dead_page_error(exc),
            "infrastructure_error": str(exc),
            "step_time_ms": (time.perf_counter() - started) * 1000,
        }
        if observation is None:
            observation = blank(self.observation_space)
        return observation, 0.0, False, True, info

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


def guard_reset(reset: Callable[..., T]) -> Callable[..., T]:
    """``reset`` that, when it raises, records why (``step`` then refuses, see
    :meth:`PageEnv.check_reset`) and re-arms Gymnasium's env checker (:func:`rearm_env_checker`),
    so that the environment stays usable: the next good ``reset()`` starts an episode as usual."""

    @functools.wraps(reset)
    def guarded(self: PageEnv, *args: Any, **kwargs: Any) -> T:
        try:
            result = reset(self, *args, **kwargs)
        except Exception as exc:
            self._reset_error = f"{type(exc).__name__}: {exc}"
            rearm_env_checker(self)
            raise
        self._reset_error = None
        return result

    return guarded


def rearm_env_checker(env: gym.Env, depth: int = 8) -> None:
    """Re-arm the ``PassiveEnvChecker`` whose first ``reset`` check called ``env.reset`` and saw
    it raise.

    ``gym.make`` wraps every environment in Gymnasium's ``PassiveEnvChecker``. It marks its
    one-time reset check done *before* it calls the environment's ``reset`` and keeps that reset's
    data for its first ``step`` check; when the first ``reset`` raises, the check is spent with no
    data, and the first ``step`` after a later good reset fails inside the checker with
    ``TypeError: cannot unpack non-iterable NoneType object`` (Gymnasium 1.4). The checker is the
    caller of this ``reset``, a few frames up the stack: marking its reset check not done makes
    the next ``reset`` the checked one, as if the failed one had not happened. Nothing changes
    when no checker called (``disable_env_checker=True``, a bare env) or when its reset check had
    already passed.
    """
    frame = sys._getframe(1)
    for _ in range(depth):
        if frame is None:
            return
        wrapper = frame.f_locals.get("self")
        if isinstance(wrapper, PassiveEnvChecker) and wrapper.env is env:
            if getattr(wrapper, "_previous_data", None) is None:
                wrapper.checked_reset = False
            return
        frame = frame.f_back


def dead_page_error(exc: Exception) -> str:
    """What the agent is told when the page died during its step."""
    return f"the editor page died ({exc}); call reset() to recover"


def blank(space: spaces.Space) -> Any:
    """An empty observation of ``space``: zeros, empty text, the same for each part of a Dict."""
    if isinstance(space, spaces.Dict):
        return {key: blank(sub) for key, sub in space.spaces.items()}
    if isinstance(space, spaces.Text):
        return ""
    if isinstance(space, spaces.Discrete):
        return int(space.start)
    if isinstance(space, (spaces.Box, spaces.MultiDiscrete, spaces.MultiBinary)):
        return np.zeros(space.shape, dtype=space.dtype)
    raise TypeError(f"no blank observation for {space}")
