"""A closed environment's page is kept as its browser's spare while another page holds the
browser, and the next environment takes it over: the same page, the same observation as on a
new page, never a page whose settings an agent changed, and nothing kept once the browser goes."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import scratch_gym  # noqa: F401
from scratch_gym.editor import page as page_module
from scratch_gym.editor.browser import BrowserSession
from scratch_gym.editor.page import EditorPage
from tests.helpers import frame_loop_runs


def _playwright_page(env) -> object:
    return env.unwrapped.page.page


def _drop_spare(session) -> None:
    spare = page_module._SPARES.get(id(session))
    if spare is not None:
        spare._close_context()


def _click_text(env, text: str) -> None:
    atoms = [a for a in env.unwrapped.page.call("elements.texts") if a["text"] == text]
    assert atoms, f"no visible text {text!r}"
    a = atoms[-1]
    obs, *_ = env.step({"type": "click", "start": [a["x"] + a["w"] / 2, a["y"] + a["h"] / 2]})
    assert obs["last_action_error"] == ""


@pytest.mark.browser
def test_the_next_env_takes_over_a_closed_envs_page_and_observes_as_on_a_new_page(editor_page):
    _drop_spare(editor_page.session)
    fresh = gym.make("ScratchWorld-Primitive-v0", task="arrow-keys")  # a newly loaded page
    try:
        expected, _ = fresh.reset(seed=0)
        first = gym.make("ScratchWorld-Primitive-v0")
        first.reset(seed=0)
        used = _playwright_page(first)
        assert used is not _playwright_page(fresh)
        _click_text(first, "Looks")  # leave some state behind: another category,
        first.unwrapped.page.stage_size("small")  # and the small stage (its button's store action)
        first.close()
        assert page_module._SPARES[id(editor_page.session)].page is used  # kept, not closed

        second = gym.make("ScratchWorld-Primitive-v0", task="arrow-keys")
        try:
            observed, info = second.reset(seed=0)
            assert _playwright_page(second) is used  # taken over
            assert id(editor_page.session) not in page_module._SPARES
            assert np.array_equal(observed["screenshot"], expected["screenshot"])
            assert observed["elements"] == expected["elements"]
            assert info["page_refreshes"] == 0
        finally:
            second.close()
    finally:
        fresh.close()


@pytest.mark.browser
def test_a_page_whose_settings_changed_is_not_kept(editor_page):
    _drop_spare(editor_page.session)
    env = gym.make("ScratchWorld-Primitive-v0")
    env.reset()
    page = env.unwrapped.page
    for text in ("Settings", "Language", "Deutsch"):
        _click_text(env, text)
    assert page.call("editor.settings")["changed"]
    used = page.page
    env.close()
    assert id(editor_page.session) not in page_module._SPARES
    assert used.is_closed()


@pytest.mark.browser
@pytest.mark.parametrize(
    ("script", "leftover"),
    [
        ("ScratchGym.vm.extensionManager.loadExtensionURL('pen')", "pen"),
        ("ScratchGym.vm.setTurboMode(true)", "turbo mode"),
    ],
)
def test_a_page_with_an_extension_or_turbo_mode_is_not_kept(editor_page, script, leftover):
    """An extension loaded now (its category shows until a project that does not use it loads)
    and turbo mode (which loading another project keeps); a new page has neither."""
    _drop_spare(editor_page.session)
    env = gym.make("ScratchWorld-Primitive-v0")
    env.reset()
    page = env.unwrapped.page
    page.page.evaluate(script)
    assert page.call("editor.leftovers") == [leftover]
    used = page.page
    env.close()
    assert id(editor_page.session) not in page_module._SPARES
    assert used.is_closed()


@pytest.mark.browser
def test_without_another_page_nothing_is_kept_and_reuse_false_never_keeps():
    session = BrowserSession()  # a browser of this test's own: no other page holds it
    only = EditorPage(session).open()
    only.close()  # the last page: the browser closes, no spare is kept
    assert id(session) not in page_module._SPARES and not session.browser_connected()

    holder = EditorPage(session).open()
    try:
        alone = EditorPage(session, reuse=False).open()
        used = alone.page
        alone.close()
        assert id(session) not in page_module._SPARES and used.is_closed()
        kept = EditorPage(session).open()
        used = kept.page
        kept.close()
        assert page_module._SPARES[id(session)].page is used  # reuse on: kept
    finally:
        holder.close()
    assert id(session) not in page_module._SPARES and not session.browser_connected()


def _sensing_palette(env) -> np.ndarray:
    env.reset(seed=0)
    _click_text(env, "Sensing")  # its palette shows colour inputs: swatches drawn at random
    return env.unwrapped.page.screenshot()


@pytest.mark.browser
def test_the_palette_is_drawn_alike_on_every_page(editor_page):
    """The editor draws the colour swatches of the palette's colour inputs at random when it builds
    the palette. The page's random generator is seeded before the editor loads
    (bridge/random.js), so the Sensing palette looks the same on a newly loaded page, and after
    an episode with another palette."""
    _drop_spare(editor_page.session)
    env = gym.make("ScratchWorld-Primitive-v0")
    try:
        first = _sensing_palette(env)
        env.reset(options={"task": "shopping-basket"})  # a list: the flyout is rebuilt
        assert np.array_equal(_sensing_palette(env), first)
        new_page = gym.make("ScratchWorld-Primitive-v0")  # no spare: a newly loaded page
        try:
            assert np.array_equal(_sensing_palette(new_page), first)
        finally:
            new_page.close()
    finally:
        env.close()


@pytest.mark.browser
def test_a_kept_page_rests_and_runs_again_as_a_new_page_when_taken(editor_page):
    """A spare page's VM frame loop is stopped while it waits (it redraws the stage 30 times a
    second otherwise), and the page that takes it over has it running, as a new page has."""
    _drop_spare(editor_page.session)
    new = EditorPage().open()
    try:
        assert frame_loop_runs(new.page)  # what a newly loaded page does
        new.close()
        spare = page_module._SPARES[id(editor_page.session)]
        kept = spare.page
        assert not frame_loop_runs(kept)
        taker = EditorPage().open()
        try:
            assert taker.page is kept  # taken over, not loaded anew
            assert frame_loop_runs(taker.page)
        finally:
            taker.close()
    finally:
        new.close()
