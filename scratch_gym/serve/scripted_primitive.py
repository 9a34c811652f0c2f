"""The scripted endpoint's primitive mode: scratch-gym's primitive oracle, driven turn by turn
against the live ``serve`` session that the conversation's agent controls.

**Why live.** Primitive actions are screen coordinates, and what lies where depends on the live
page (its layout, scroll positions, what earlier drags really did, a page reused from an earlier
session). So the oracle is not played ahead on a private page: it reads the very session the
agent acts on, through ``serve --oracle-channel`` (:mod:`scratch_gym.serve.oracle_channel`, the
oracle's own read-only privileged view, over HTTP). Each turn the session's oracle
(:class:`~scratch_gym.agents.primitive_oracle.PrimitiveOracleAgent`, a generator that reads the
editor between actions) is resumed once: their runner has executed its previous action and waited
before it asked, so the oracle sees that action's result, repairs what went wrong as it does in
scratch-gym's env, and yields the next gesture. The gesture is written as their primitive API
(:func:`their_action`) in the 1280x720 screen pixels that serve's screenshots and routes use.

**Which session.** A conversation's first turn claims the one open session, not yet claimed,
whose last loaded project is the task's ``initial_project`` (their runner loads it before it asks).
Two unclaimed sessions on the same project at once cannot be told apart: that turn gets an HTTP 400
(run such tasks one at a time, ``--parallel 1``). Each reply names its session (``on session
ID``), so later turns find it in the conversation's latest assistant message.
"""

from __future__ import annotations

import base64
import io
import re
import threading
from collections import deque
from typing import Any

import requests

from scratch_gym.editor.bridge import ReadBridge

Action = dict[str, Any]
SESSION = re.compile(r"on session ([0-9A-Za-z_-]+)")
PRIMITIVE_MARK = "using primitive UI actions"


class SessionUnknown(ValueError):
    """No session, or more than one, fits the conversation (HTTP 400)."""


# -- their primitive API ------------------------------------------------------------------------
def _xy(point: Any) -> tuple[int, int]:
    return int(round(float(point[0]))), int(round(float(point[1])))


def their_action(action: Action) -> list[Action]:
    """scratch-gym's primitive action as ScratchWorld's primitive API calls (screen pixels,
    whole numbers as their routes take them): ``click``, ``double_click``, ``drag_and_drop``,
    ``scroll`` (one call per axis: theirs scroll one way at a time, by ``amount`` wheel pixels),
    ``type``, ``key``, ``hotkey`` (``"Control+z"`` -> ``["Control", "z"]``), ``done``, ``failed``."""
    kind = action.get("action_type")
    if kind in ("click", "double_click"):
        x, y = _xy(action["start"])
        return [{"api": kind, "args": {"x": x, "y": y}}]
    if kind == "drag":
        (sx, sy), (ex, ey) = _xy(action["start"]), _xy(action["end"])
        # duration 0: their route moves the pointer to the end in one step. Their default (0.5 s)
        # is 15 steps on the straight line, and the last ones pass within Blockly's snap radius of
        # connections next to the target: a snapped insertion marker there shifts the stack and
        # stays the candidate at the drop, so a block meant for under ``move`` lands above it.
        # scratch-gym's drag (past the drag radius, then three long steps) has no such stops.
        args = {"start_x": sx, "start_y": sy, "end_x": ex, "end_y": ey, "duration": 0}
        return [{"api": "drag_and_drop", "args": args}]
    if kind == "scroll":
        x, y = _xy(action["start"])
        dx, dy = (float(v) for v in action["scroll"])
        calls = []
        for delta, neg, pos in ((dy, "up", "down"), (dx, "left", "right")):
            if round(delta):
                direction = pos if delta > 0 else neg
                args = {"direction": direction, "amount": abs(round(delta)), "x": x, "y": y}
                calls.append({"api": "scroll", "args": args})
        return calls or [{"api": "scroll", "args": {"direction": "down", "amount": 0, "x": x, "y": y}}]  # fmt: skip
    if kind == "type":
        return [{"api": "type", "args": {"text": action.get("text") or ""}}]
    if kind == "key":
        return [{"api": "key", "args": {"key": action["keys"]}}]
    if kind == "hotkey":
        keys = str(action["keys"])
        parts = keys.split("+") if keys != "+" else ["+"]
        return [{"api": "hotkey", "args": {"keys": [p for p in parts if p]}}]
    if kind in ("done", "failed"):
        return [{"api": kind, **({"reason": action["reason"]} if action.get("reason") else {})}]
    raise ValueError(f"no primitive API call of theirs for {action!r}")


# -- the oracle channel over HTTP ---------------------------------------------------------------
class RemoteChannel:
    """A :class:`~scratch_gym.editor.privileged.Privileged`-like channel onto one serve session:
    ``bridge`` (the read calls), ``project()`` and ``screenshot()``; reads only."""

    def __init__(self, serve_url: str, session_id: str, token: str | None = None) -> None:
        self.url = f"{serve_url.rstrip('/')}/sessions/{session_id}"
        self.http = requests.Session()
        if token:
            self.http.headers["Authorization"] = f"Bearer {token}"
        self.bridge = ReadBridge(self)

    def call(self, name: str, args: dict[str, Any] | None = None) -> Any:
        r = self.http.post(f"{self.url}/oracle/call", json={"name": name, "args": args}, timeout=60)
        if r.status_code != 200:
            raise RuntimeError(f"oracle channel {name}: HTTP {r.status_code} {r.text[:300]}")
        return r.json()["value"]

    def project(self) -> dict[str, Any]:
        return self.bridge.project_json()

    def screenshot(self) -> Any:
        import numpy as np
        from PIL import Image

        r = self.http.get(f"{self.url}/screenshot", timeout=60)
        r.raise_for_status()
        with Image.open(io.BytesIO(base64.b64decode(r.json()["screenshot"]))) as img:
            return np.asarray(img.convert("RGB"))

    def privileged(self) -> RemoteChannel:  # what an oracle's bind(env) asks an env for
        return self


def list_sessions(serve_url: str, token: str | None = None) -> dict[str, dict[str, Any]]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = requests.get(f"{serve_url.rstrip('/')}/oracle/sessions", headers=headers, timeout=30)
    if r.status_code == 403:
        raise SessionUnknown(f"{serve_url} refuses the oracle channel: start serve with --oracle-channel")  # fmt: skip
    r.raise_for_status()
    return r.json()


# -- one session's oracle -----------------------------------------------------------------------
class SessionOracle:
    """The primitive oracle bound to one live session: :meth:`next` resumes it once."""

    def __init__(self, channel: RemoteChannel, task: Any) -> None:
        from scratch_gym.agents.primitive_oracle import PrimitiveOracleAgent

        self.agent = PrimitiveOracleAgent()
        self.agent.bind(channel)
        self.agent.reset(task)
        self.pending: deque[Action] = deque()
        self.lock = threading.Lock()

    def next(self) -> Action:
        """Their next call: a queued one (the second axis of a scroll), else the oracle's next
        gesture; ``failed`` with the reason when the oracle cannot go on."""
        with self.lock:
            if not self.pending:
                try:
                    ours = self.agent.act({}, {})
                except Exception as exc:  # noqa: BLE001 - the agent is told why, and stops
                    ours = {"action_type": "failed", "reason": f"{type(exc).__name__}: {exc}"}
                self.pending.extend(their_action(ours))
            return self.pending.popleft()


class PrimitivePlayer:
    """The session oracles of a serve instance, by session id; claims sessions for new
    conversations."""

    def __init__(self, serve_url: str, token: str | None = None) -> None:
        self.serve_url = serve_url
        self.token = token
        self.oracles: dict[str, SessionOracle] = {}
        self.lock = threading.Lock()

    def oracle(self, session_id: str | None, task: Any, project: str) -> tuple[str, SessionOracle]:
        """The conversation's session and its oracle: ``session_id`` as named in the
        conversation, or (first turn) the one unclaimed session holding ``project``."""
        with self.lock:
            if session_id is None:
                open_ = list_sessions(self.serve_url, self.token)
                fits = [s for s, i in open_.items() if i.get("project") == project and s not in self.oracles]  # fmt: skip
                if len(fits) != 1:
                    raise SessionUnknown(
                        f"{len(fits)} unclaimed sessions of {self.serve_url} hold {project!r}; "
                        "the scripted endpoint needs exactly one (run such tasks one at a time)"
                    )
                session_id = fits[0]
            if session_id not in self.oracles:  # a new claim, or an endpoint restarted mid-run
                channel = RemoteChannel(self.serve_url, session_id, self.token)
                self.oracles[session_id] = SessionOracle(channel, task)
            return session_id, self.oracles[session_id]
