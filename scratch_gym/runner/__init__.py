"""Evaluating agents: episodes, suites in processes or on Ray, results files, tables, plots,
recordings.

* ``run_suite(AgentSpec(...), categories=..., runs=k, workers=n, results=path, resume=...)``
* ``run_task(task_id, agent, mode, record_dir=...)``: one watched episode
* ``table1(records)``, ``perception_table`` (their suites' report tables, from
  :mod:`scratch_gym.suites.tasks` and :mod:`scratch_gym.suites.perception`), ``plot_categories``;
  each suite's report in :mod:`scratch_gym.runner.reports`
* ``ResultsFile``: the JSONL store (atomic appends, resume)
* ``Recorder``: GIF + HTML of an episode
"""

from __future__ import annotations

from scratch_gym.runner.jobs import AgentSpec, EnvSpec, Job
from scratch_gym.runner.recording import Recorder
from scratch_gym.runner.results import ResultsFile
from scratch_gym.runner.single import run_task
from scratch_gym.runner.suite import ResumeError, run_suite, select_tasks
from scratch_gym.suites.perception import perception_table
from scratch_gym.suites.tasks import summary, table1

__all__ = [
    "AgentSpec",
    "EnvSpec",
    "Job",
    "Recorder",
    "ResultsFile",
    "ResumeError",
    "run_suite",
    "perception_table",
    "run_task",
    "select_tasks",
    "summary",
    "table1",
]
