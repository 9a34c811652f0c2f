"""Infrastructure failures are retried, never counted against the agent; Ray spreads episodes."""

from __future__ import annotations

import gymnasium as gym
import pytest

from scratch_gym.agents.primitive_oracle import PrimitiveOracleAgent
from scratch_gym.runner.episode import run_with_retries
from scratch_gym.tasks import load_task

TASK = "say-hello"


class PageClosingOracle(PrimitiveOracleAgent):
    """The oracle, except that on its first episode its editor page dies at step 2."""

    def __init__(self) -> None:
        super().__init__()
        self.episodes = 0
        self.steps = 0

    def bind(self, env) -> None:
        super().bind(env)
        self.victim = env.unwrapped  # the test kills its page (fault injection)

    def reset(self, task=None) -> None:
        super().reset(task)
        self.episodes += 1
        self.steps = 0

    def act(self, observation, info):
        self.steps += 1
        if self.episodes == 1 and self.steps == 2:
            self.victim.page.page.close()  # the editor page dies under the agent
        return super().act(observation, info)


@pytest.mark.browser
def test_a_dead_page_is_retried_not_counted_as_failure():
    make = lambda: gym.make("ScratchWorld-Primitive-v0", reward_mode="sparse")  # noqa: E731
    env = make()
    try:
        outcome, env = run_with_retries(make, env, PageClosingOracle(), load_task(TASK))
    finally:
        env.close()
    assert outcome["status"] == "success" and outcome["success"]
    assert outcome["infra_retries"] == 1
