"""TaskEpisode: PSR rewards, evaluation only when needed, return = final - initial PSR."""

from __future__ import annotations

from scratch_gym.tasks import TaskEpisode, load_task
from scratch_gym.tasks.projects import load_project


def test_per_step_rewards_sum_to_final_minus_initial(page):
    task = load_task("say-hello")
    episode = TaskEpisode(page, task)
    info = episode.start()
    assert info["initial_psr"] == info["psr"] == 0.0 and not info["success"]
    assert [t["name"] for t in info["tests"]] == task.test_names
    rewards = []
    reward, info = episode.step()  # nothing changed: cached, zero reward
    rewards.append(reward)
    assert reward == 0.0 and episode.evaluator.evaluations == 1
    page.load_project(load_project(task.golden))
    page.settle()
    reward, info = episode.step()
    rewards.append(reward)
    assert info["success"] and info["psr"] == 1.0 and reward == 1.0
    reward, info = episode.step(final=True)
    rewards.append(reward)
    assert sum(rewards) == info["psr"] - info["initial_psr"] == 1.0


def test_sparse_mode_evaluates_only_at_the_end(page):
    task = load_task("say-hello")
    episode = TaskEpisode(page, task, every_step=False)
    episode.start()
    page.load_project(load_project(task.golden))
    page.settle()
    reward, info = episode.step()
    assert reward == 0.0 and not info["evaluated"] and info["psr"] == 0.0
    reward, info = episode.step(final=True)
    assert reward == 1.0 and info["evaluated"] and info["success"]
    assert episode.evaluator.evaluations == 2
