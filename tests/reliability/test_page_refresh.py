"""The editor page is replaced when its heap grew, and a refresh does not change results."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from scratch_gym.editor.memory import HeapGrowthGuard
from scratch_gym.tasks import list_tasks


def test_guard_measures_after_warmup_and_refreshes_only_past_the_limit():
    guard = HeapGrowthGuard(max_growth=0.10, warmup=2, check_every=3)
    heap = iter([100.0, 109.0, 111.0])
    calls = []

    def measure() -> float:
        calls.append(1)
        return next(heap)

    decisions = [guard.should_refresh(measure) for _ in range(8)]
    # reset 2 measures the baseline (100), reset 5 measures 109 (within 10%), reset 8 measures 111
    assert decisions == [False] * 7 + [True]
    assert len(calls) == 3 and guard.baseline_mib == 100.0
    guard.page_opened()
    assert guard.baseline_mib is None and not guard.should_refresh(measure)


def test_disabled_guard_never_measures():
    guard = HeapGrowthGuard(max_growth=None, warmup=1, check_every=1)
    assert not any(guard.should_refresh(lambda: 1 / 0) for _ in range(5))


@pytest.mark.browser
def test_refreshed_page_gives_the_same_observation_and_evaluation():
    task = list_tasks()[0]
    env = gym.make("ScratchWorld-Primitive-v0")
    try:
        page = env.unwrapped.page
        # refresh at every reset after the first (a limit every heap passes)
        page.memory_guard = HeapGrowthGuard(max_growth=-1.0, warmup=1, check_every=1)
        obs_before, info_before = env.reset(options={"task": task.id})
        old_page = page.page
        assert info_before["page_refreshes"] == 0 and page.memory_guard.baseline_mib > 0
        _, _, _, _, done_before = env.step({"action_type": "done"})

        obs_after, info_after = env.reset(options={"task": task.id})
        assert info_after["page_refreshes"] == 1
        assert page.page is not old_page and old_page.is_closed()
        _, _, _, _, done_after = env.step({"action_type": "done"})
    finally:
        env.close()
    assert np.array_equal(obs_before["screenshot"], obs_after["screenshot"])
    assert done_before["tests"] == done_after["tests"]
    assert done_before["psr"] == done_after["psr"]
