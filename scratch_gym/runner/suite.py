"""Evaluating an agent on a suite: jobs, resume, progress bar, results file.

```python
from scratch_gym.runner import AgentSpec, evaluate
records = evaluate(AgentSpec("oracle"), categories=["create"], runs=3, results="out.jsonl")
```
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tqdm import tqdm

from scratch_gym.runner.jobs import AgentSpec, EnvSpec, Job, make_jobs
from scratch_gym.runner.results import ResultsFile


class ResumeError(RuntimeError):
    """The results file already holds episodes of this run and ``resume`` was not asked for."""


def select_tasks(
    categories: Sequence[str] | None = None,
    task_ids: Sequence[str] | None = None,
    scratchworld: str | Path | None = None,
):
    """Tasks by id, or of the given categories (all when neither is given); from a ScratchWorld
    checkout (paired with their goldens) when ``scratchworld`` is given."""
    from scratch_gym.tasks import list_tasks, load_task

    if scratchworld:
        from scratch_gym.tasks.scratchworld_golden import scratchworld_tasks

        if task_ids:
            return scratchworld_tasks(scratchworld, names=list(task_ids))
        if not categories:
            return scratchworld_tasks(scratchworld)
        return [t for c in categories for t in scratchworld_tasks(scratchworld, c)]
    if task_ids:
        return [load_task(t) for t in task_ids]
    if not categories:
        return list_tasks()
    return [t for c in categories for t in list_tasks(c)]


def evaluate(
    agent: AgentSpec,
    *,
    categories: Sequence[str] | None = None,
    task_ids: Sequence[str] | None = None,
    runs: int = 1,
    workers: int = 1,
    results: str | Path = "results.jsonl",
    resume: bool = False,
    env: EnvSpec | None = None,
    ray_address: str | None = None,
    record_dir: str | None = None,
    seed: int = 0,
    progress: bool = True,
    limit: int | None = None,
    scratchworld: str | Path | None = None,
) -> list[dict[str, Any]]:
    """Run the missing episodes and return every record of this agent and mode in ``results``.

    ``scratchworld``: evaluate on the tasks of this ScratchWorld checkout (scored by its own
    scripts) instead of the shipped suite. ``limit`` stops after that many new episodes (for
    tests of interruption)."""
    store = ResultsFile(results)
    store.repair()
    checkout = str(Path(scratchworld).expanduser().resolve()) if scratchworld else None
    tasks = select_tasks(categories, task_ids, checkout)
    jobs = make_jobs(agent, tasks, runs, seed, record_dir, checkout)
    done = store.done_keys()
    mine = {j.key for j in jobs}
    if done & mine and not resume:
        raise ResumeError(
            f"{store.path} already holds {len(done & mine)} of these episodes; pass resume=True "
            "(--resume) to continue, or use another results file"
        )
    todo: list[Job] = [j for j in jobs if j.key not in done]
    if limit is not None:
        todo = todo[:limit]
    bar = tqdm(
        total=len(jobs),
        initial=len(jobs) - len([j for j in jobs if j.key not in done]),
        desc=f"{agent.title} ({agent.mode})",
        unit="ep",
        disable=not progress,
    )
    successes = 0

    def on_record(record: dict[str, Any]) -> None:
        nonlocal successes
        store.append(record)
        successes += bool(record.get("success"))
        bar.update(1)
        bar.set_postfix(success=successes, last=f"{record['task']}:{record['status']}")

    try:
        if ray_address:
            from scratch_gym.runner.ray_pool import run_jobs_ray

            run_jobs_ray(todo, env or EnvSpec(), ray_address, workers, on_record)
        else:
            from scratch_gym.runner.pool import run_jobs

            run_jobs(todo, env or EnvSpec(), workers, on_record)
    finally:
        bar.close()
    return [r for r in store.records() if r["key"] in mine]
