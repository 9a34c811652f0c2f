"""Recovery from a dead renderer or browser, and no Chromium left behind after close()."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import gymnasium as gym
import pytest

from scratch_gym.editor.browser import BrowserSession
from tests.helpers import flyout_box, grab


def _renderer_pids(session) -> list[int]:
    out = []
    for pid in session.pids():
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"--type=renderer" in cmd:
            out.append(pid)
    return out


def _drag_works(env) -> bool:
    page = env.unwrapped.page
    move = flyout_box(page, "motion_movesteps")
    _, _, _, _, info = env.step({"action_type": "drag", "start": grab(move), "end": [450, 220]})
    return info["blocks"] == 1 and info["last_action_error"] == ""


@pytest.mark.browser
def test_killed_browser_mid_episode_then_reset_recovers():
    session = BrowserSession()  # private: killing it must not disturb other tests
    env = gym.make("ScratchWorld-Primitive-v0", browser=session)
    try:
        env.reset()
        old = session.main_pid()
        assert old is not None
        os.kill(old, signal.SIGKILL)
        time.sleep(0.5)
        # the step in flight reports the dead page instead of crashing the loop
        _, _, terminated, truncated, info = env.step({"action_type": "click", "start": [600, 300]})
        assert truncated and not terminated and "reset()" in info["last_action_error"]
        _, info = env.reset()
        assert info["blocks"] == 0
        assert session.main_pid() not in (None, old)
        assert _drag_works(env)
    finally:
        env.close()


@pytest.mark.browser
def test_killed_renderer_then_reset_recovers():
    session = BrowserSession()  # private: killing it must not disturb other tests
    env = gym.make("ScratchWorld-Primitive-v0", browser=session)
    try:
        env.reset()
        renderers = _renderer_pids(session)
        assert renderers
        for pid in renderers:
            os.kill(pid, signal.SIGKILL)
        time.sleep(0.5)
        _, info = env.reset()
        assert info["blocks"] == 0 and _drag_works(env)
    finally:
        env.close()


CLOSE_SCRIPT = """
import json, gymnasium as gym, scratch_gym
from scratch_gym.editor.browser import shared_session
envs = [gym.make("ScratchWorld-Primitive-v0") for _ in range(2)]
for env in envs:
    env.reset()
session = shared_session()
pids = session.pids()
for env in envs:
    env.close()
    env.close()  # idempotent
print(json.dumps({"pids": pids, "marker": session._marker}))
"""


@pytest.mark.browser
def test_close_is_idempotent_and_leaves_no_chromium():
    out = subprocess.run(
        [sys.executable, "-c", CLOSE_SCRIPT],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert len(result["pids"]) >= 2  # browser + renderers were there
    alive = []
    for pid in result["pids"]:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.append(pid)
    assert alive == []
    marker = result["marker"].encode()
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                assert marker not in (proc / "cmdline").read_bytes()
            except OSError:
                pass


@pytest.mark.browser
def test_single_drag_env_reports_a_dead_page_and_recovers_at_reset():
    """The single-drag env shares ScratchEnv's page life cycle (PageEnv): a page that dies during
    a step truncates the episode with ``infrastructure_error``; reset() recovers."""
    session = BrowserSession()  # private: killing it must not disturb other tests
    env = gym.make("ScratchWorld-SingleDrag-v0", browser=session)
    drag = {"start": [600, 300], "end": [650, 350]}
    try:
        env.reset(options={"task": "dc-01"})
        for pid in _renderer_pids(session):
            os.kill(pid, signal.SIGKILL)
        time.sleep(0.5)
        obs, reward, terminated, truncated, info = env.step(drag)
        assert truncated and not terminated and reward == 0.0
        assert info["infrastructure_error"] and "reset()" in info["last_action_error"]
        assert env.observation_space.contains(obs)
        env.reset(options={"task": "dc-01"})
        _, _, terminated, truncated, info = env.step(drag)
        assert terminated and "infrastructure_error" not in info, info
    finally:
        env.close()


@pytest.mark.browser
def test_program_env_scores_on_a_fresh_page_when_its_page_died():
    """A program episode's editor state is the program itself: when the page died, the step
    loads the program into a fresh page and scores it as usual."""
    session = BrowserSession()  # private: killing it must not disturb other tests
    env = gym.make("ScratchWorld-Program-v0", browser=session)
    try:
        env.reset(options={"task": "say-hello"})
        for pid in _renderer_pids(session):
            os.kill(pid, signal.SIGKILL)
        time.sleep(0.5)
        _, _, terminated, truncated, info = env.step("when @greenFlag clicked\nsay [Hello!]")
        assert terminated and not truncated and info["parsed"], info
        assert [t["passed"] for t in info["tests"]][:1] == [True]
    finally:
        env.close()


def test_blank_observations_fit_their_spaces():
    from scratch_gym.editor.page_env import blank

    for env_id in ("ScratchWorld-SingleDragPixels-v0", "ScratchWorld-Program-v0"):
        env = gym.make(env_id)  # spaces only: no page is opened before reset()
        try:
            assert env.observation_space.contains(blank(env.observation_space)), env_id
        finally:
            env.close()
