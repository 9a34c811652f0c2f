"""Evaluating an agent on a suite: jobs, resume, progress bar, results file.

```python
from scratch_gym.runner import AgentSpec, run_suite
records = run_suite(AgentSpec("oracle"), categories=["create"], runs=3, results="out.jsonl")
records = run_suite(AgentSpec("oracle", "perception"), suite=make_suite("perception", screens=2))
```
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from scratch_gym.progress import progress_bar
from scratch_gym.runner.jobs import AgentSpec, EnvSpec, Job, make_jobs
from scratch_gym.runner.results import ResultsFile
from scratch_gym.suites import Suite, TaskSuite


class ResumeError(RuntimeError):
    """The results file already holds episodes of this run and ``resume`` was not asked for."""


def select_tasks(
    categories: Sequence[str] | None = None,
    task_ids: Sequence[str] | None = None,
    scratchworld: str | Path | None = None,
    suite: Suite | None = None,
) -> list[Any]:
    """Tasks of ``suite`` (default: the task suite, or ScratchWorld's with ``scratchworld``) by
    id, or of the given categories (all when neither is given)."""
    suite = suite or TaskSuite(scratchworld=str(scratchworld) if scratchworld else None)
    return checked_selection(suite, categories, task_ids)


def checked_selection(
    suite: Suite, categories: Sequence[str] | None = None, task_ids: Sequence[str] | None = None
) -> list[Any]:
    """``suite.select(categories, task_ids)`` (the one task vocabulary), and with both given only
    the named tasks of those categories; an unknown category or id is a ValueError naming it
    (with a did-you-mean), not an empty run."""
    tasks = suite.select(categories, task_ids)
    if not (categories and task_ids):
        return tasks
    suite.select(categories)  # each category must be one of the suite's
    return [t for t in tasks if t.category in categories]


def run_suite(
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
    suite: Suite | None = None,
) -> list[dict[str, Any]]:
    """Run the missing episodes and return every record of this agent and mode in ``results``.

    ``suite``: the suite to run (see :mod:`scratch_gym.suites`; default the task suite);
    ``scratchworld`` is short for the suite of that ScratchWorld checkout's tasks (scored by its
    own scripts). ``limit`` stops after that many new episodes (for tests of interruption)."""
    suite = suite or TaskSuite(scratchworld=str(scratchworld) if scratchworld else None)
    suite.check_mode(agent.mode)
    store = ResultsFile(results)
    store.repair()
    tasks = checked_selection(suite, categories, task_ids)
    jobs = make_jobs(agent, tasks, runs, seed, record_dir, suite)
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
    bar = progress_bar(
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
            from scratch_gym.runner.ray_workers import run_jobs_ray

            run_jobs_ray(todo, env or EnvSpec(), ray_address, workers, on_record)
        else:
            from scratch_gym.runner.workers import run_jobs

            run_jobs(todo, env or EnvSpec(), workers, on_record)
    finally:
        bar.close()
    return [r for r in store.records() if r["key"] in mine]
