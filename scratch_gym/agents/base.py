"""The agent interface: a policy for a plain Gymnasium loop.

```python
agent.reset(task)                      # a Task (or None) before each episode
obs, info = env.reset(options={"task": task.id})
while True:
    action = agent.act(obs, info)
    obs, reward, terminated, truncated, info = env.step(action)
    if terminated or truncated:
        break
```

Agents that need privileged access to the editor (the oracle reads block geometry) get the
environment through :meth:`Agent.bind` and read it through its privileged channel
(:func:`privileged_channel`; :class:`PrivilegedAgent` does both); ``agent.info`` holds what the
last ``act`` wants recorded (token usage, the raw reply, parse errors).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

# how an agent acts: the task suite's two modes, and the one-step suites' answers
AGENT_MODES = ("primitive", "composite", "single_drag", "perception", "nl2scratch")


class AgentError(RuntimeError):
    """The agent could not produce an action for reasons outside the task (e.g. its API is down)."""


class Agent(ABC):
    """A policy: ``reset(task)`` once per episode, then ``act(observation, info) -> action``."""

    name: str = "agent"
    mode: str = "primitive"

    def __init__(self) -> None:
        self.info: dict[str, Any] = {}

    def bind(self, env: Any) -> None:
        """Give the agent the environment (default: ignored). Called before each episode."""
        return None

    def check_mode(self, mode: str | None) -> None:
        """ValueError unless ``mode`` is None or the one mode this agent acts in."""
        if mode not in (None, self.mode):
            raise ValueError(f"the {self.name} agent acts in {self.mode} mode, not {mode!r}")

    def seed(self, seed: int) -> None:
        """Seed the agent's randomness for the next episode (default: nothing to seed)."""
        return None

    def reset(self, task: Any = None) -> None:
        """Start a new episode on ``task`` (a :class:`scratch_gym.tasks.Task` or None)."""
        self.info = {}

    @abstractmethod
    def act(self, observation: Any, info: dict[str, Any]) -> Any:
        """The next action for the environment's action space."""

    def close(self) -> None:
        """Release what the agent holds (HTTP sessions, ...)."""
        return None


def privileged_channel(env: Any) -> Any:
    """The env's privileged channel (``env.unwrapped.privileged()``): read-only access to its
    editor and to the episode's hidden facts, for oracles only."""
    return (env.unwrapped if hasattr(env, "unwrapped") else env).privileged()


class PrivilegedAgent(Agent):
    """An agent of one ``mode`` that reads the bound env's privileged channel: ``self.channel``
    for the editor, :meth:`fact` for the episode's hidden facts."""

    def __init__(self, mode: str | None = None) -> None:
        super().__init__()
        self.check_mode(mode)
        self.channel: Any = None

    def bind(self, env: Any) -> None:
        self.channel = privileged_channel(env)

    def fact(self, key: str) -> Any:
        """One of the episode's hidden facts (``hidden_facts()`` of the env)."""
        if self.channel is None:
            raise RuntimeError(f"the {self.name} agent needs bind(env) before it acts")
        facts = self.channel.facts()
        if facts.get(key) is None:
            raise RuntimeError(f"the environment published no {key!r} for this episode")
        return facts[key]
