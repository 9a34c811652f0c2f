"""The shipped suite, adversarially: for each task the golden project passes every test, the
starting project and each negative fail at least one, and the golden project without any one
block it adds or changes fails at least one (unless that block is listed as behaviour-neutral).

CI checks a slice (every sixth task, and every task when ``SCRATCH_GYM_FULL=1``); the whole suite
is the command ``scratch-gym tasks check --all``."""

from __future__ import annotations

import os

import pytest

from scratch_gym.tasks import list_tasks
from scratch_gym.tasks.adversarial import check_task, removal_variants

TASKS = list_tasks()
SLICE = TASKS if os.environ.get("SCRATCH_GYM_FULL") == "1" else TASKS[::6]


@pytest.fixture(scope="module")
def idle_page(editor_page):
    """The session's page as it is: the check evaluates project data, never the editor's."""
    if not editor_page.is_alive():
        editor_page.recover()
    editor_page.settle(stop_vm=True)
    return editor_page


@pytest.mark.parametrize("task", SLICE, ids=[t.id for t in SLICE])
def test_task_tells_right_from_wrong(idle_page, task):
    report = check_task(idle_page, task)
    assert report.ok, "\n".join(report.problems())
    kinds = [c.kind for c in report.checks]
    assert kinds.count("golden") == 1 and kinds.count("start") == 1
    assert kinds.count("negative") == len(task.negatives) >= 1
    assert kinds.count("removal") == len(removal_variants(task)) >= 1


def test_suite_covers_every_category_and_partial_credit():
    cats = {}
    for t in TASKS:
        cats.setdefault(t.category, []).append(t.id)
    assert all(len(cats.get(c, [])) >= 3 for c in ("create", "debug", "extend", "compute")), cats
