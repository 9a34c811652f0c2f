"""The one task vocabulary (docs/tasks.md, "Selecting tasks"): the same words select the same
tasks in the task registry, the single-drag env, the Program env and every suite's ``select``."""

from __future__ import annotations

import pytest

from scratch_gym.envs.program import writable_task_ids
from scratch_gym.envs.single_drag import select_drag_tasks
from scratch_gym.suites import make_suite
from scratch_gym.task_selection import TaskSelectionError, select_ids
from scratch_gym.tasks import default_registry, list_tasks

IDS = ["bounce", "count", "greet", "spin"]
CATEGORIES = {"debug": ["bounce"], "create": ["greet", "spin"], "compute": ["count"]}


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        (None, IDS),
        ("all", IDS),
        ("create", ["greet", "spin"]),
        ("count", ["count"]),
        (["spin", "debug", "spin"], ["bounce", "spin"]),
        (("compute", "all"), IDS),
    ],
)
def test_a_selection_is_all_a_category_an_id_or_a_list_of_them_sorted(spec, expected):
    assert select_ids(spec, IDS, CATEGORIES) == expected


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("creat", "unknown category 'creat' (did you mean 'create'?)"),
        (["spinn"], "unknown task 'spinn' (did you mean 'spin'?)"),
        ("zzz", "unknown task or category 'zzz'; allowed:"),
        ([], "the selection [] holds no task"),
        (3, "a selection is a string or a list of strings, got 3"),
    ],
)
def test_a_bad_selection_names_the_entry_the_closest_name_and_what_is_allowed(spec, says):
    with pytest.raises(TaskSelectionError) as excinfo:
        select_ids(spec, IDS, CATEGORIES)
    message = str(excinfo.value)
    assert says in message
    assert message.endswith(
        "allowed: 'all', a category (compute, create, debug), a task id, or a list of task ids "
        "and categories (4 tasks)"
    )
    assert isinstance(excinfo.value, ValueError)


def test_aliases_mean_all_and_words_stand_alone_and_are_offered():
    assert select_ids("stored", IDS, CATEGORIES, aliases=("stored",)) == IDS
    with pytest.raises(TaskSelectionError, match="'generated' stands alone, not in a list"):
        select_ids(["generated", "spin"], IDS, CATEGORIES, words=("generated",))
    with pytest.raises(TaskSelectionError) as excinfo:
        select_ids("generatd", IDS, CATEGORIES, aliases=("stored",), words=("generated",))
    assert "(did you mean 'generated'?)" in str(excinfo.value)
    assert "allowed: 'all' (or 'stored'), 'generated', a category" in str(excinfo.value)
    assert excinfo.value.entry == "generatd"


def test_the_registry_the_program_env_and_the_tasks_suite_read_the_same_words():
    spec = ["debug", "say-hello"]
    ids = default_registry().select(spec)
    assert ids == sorted({t.id for t in list_tasks("debug")} | {"say-hello"})
    assert [t.id for t in make_suite("tasks").select(task_ids=spec)] == ids
    assert [t.id for t in make_suite("tasks").select(categories=["debug"])] == sorted(
        t.id for t in list_tasks("debug")
    )
    writable = {t.id for t in list_tasks() if t.golden is not None}
    assert writable_task_ids(spec) == [i for i in ids if i in writable]
    assert writable_task_ids(None) == sorted(writable)
    with pytest.raises(TaskSelectionError, match=r"tasks='creat': unknown category 'creat'"):
        writable_task_ids("creat")


def test_single_drag_categories_are_the_tasks_kinds_and_stored_means_all():
    every = select_drag_tasks(None)
    assert [t.id for t in select_drag_tasks("stored")] == [t.id for t in every]
    kind = every[0].category
    chosen = select_drag_tasks([kind, every[-1].id])
    assert {t.id for t in chosen} == {t.id for t in every if t.category == kind} | {every[-1].id}
    suite = make_suite("single-drag")
    assert [t.id for t in suite.select(categories=[kind])] == [
        t.id for t in every if t.category == kind
    ]
    with pytest.raises(TaskSelectionError, match=r"did you mean 'generated'\?"):
        select_drag_tasks("generatd")


def test_the_nl2scratch_suite_selects_its_items_by_the_same_words():
    """Its items' categories are where they come from: ``tasks`` (the shipped suite) here."""
    suite = make_suite("nl2scratch")
    assert [i.id for i in suite.select(categories=["tasks"])] == writable_task_ids(None)
    assert [i.id for i in suite.select(task_ids=["fix-bounce", "tasks"])] == writable_task_ids(None)
    assert [i.id for i in suite.select(task_ids=["say-hello", "fix-bounce"])] == [
        "fix-bounce",
        "say-hello",
    ]
    with pytest.raises(TaskSelectionError, match="did you mean 'fix-bounce'"):
        suite.select(task_ids=["fix-bonce"])


def test_the_envs_check_their_tasks_argument_when_made():
    from scratch_gym.envs.program import ProgramEnv
    from scratch_gym.envs.single_drag import SingleDragEnv

    with pytest.raises(ValueError, match=r"tasks='creat': unknown category 'creat'"):
        ProgramEnv(tasks="creat")
    with pytest.raises(ValueError, match=r"tasks=\['dc-1'\]: unknown task 'dc-1'"):
        SingleDragEnv(tasks=["dc-1"])


@pytest.mark.browser
def test_the_envs_draw_from_the_tasks_they_select():
    from scratch_gym.envs.program import ProgramEnv
    from scratch_gym.envs.single_drag import SingleDragEnv

    program = ProgramEnv(tasks=["fix-bounce"])
    try:
        assert program.reset(seed=1)[1]["task"] == "fix-bounce"
    finally:
        program.close()
    kind = select_drag_tasks(None)[-1].category
    drag = SingleDragEnv(tasks=kind)
    try:
        task_id = drag.reset(seed=2)[1]["task_id"]
        assert task_id in {t.id for t in select_drag_tasks(kind)}
    finally:
        drag.close()
