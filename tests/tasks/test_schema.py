"""Task files: validation with errors naming file and field, the registry, sampling. No browser."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from scratch_gym.tasks import TaskError, TaskRegistry, UnknownTaskError, list_tasks, load_task
from scratch_gym.tasks.declarative import StepError, parse_cond, validate_steps
from scratch_gym.tasks.loader import read_task
from scratch_gym.tasks.projects import project_json

GOOD = """
id = "demo"
category = "create"
instruction = "Say hi."
start = "start.toml"
golden = "golden.toml"

[tags]
blocks = ["looks_say"]
difficulty = "easy"

[[cases]]
name = "says hi"
steps = [{green_flag = true}, {frames = 2},
         {expect = {said = "Sprite1", op = "contains", value = "hi"}}]
"""


def make_task(
    root: Path, text: str = GOOD, category: str = "create", task_id: str = "demo"
) -> Path:
    folder = root / category / task_id
    folder.mkdir(parents=True)
    (folder / "task.toml").write_text(text)
    (folder / "start.toml").write_text('[[sprites]]\nname = "Sprite1"\n')
    (folder / "golden.toml").write_text(
        'extends = "start.toml"\n[[sprites]]\nname = "Sprite1"\n'
        'scripts = "when @greenFlag clicked\\nsay [hi]"\n'
    )
    return folder


def test_a_valid_task_reads(tmp_path):
    task = read_task(make_task(tmp_path))
    assert (task.id, task.category, task.step_budget) == ("demo", "create", 50)
    assert task.test_names == ["says hi"] and task.tags.blocks == ("looks_say",)
    golden = project_json(task.golden)["targets"][1]["blocks"]
    assert {b["opcode"] for b in golden.values()} == {"event_whenflagclicked", "looks_say"}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (('id = "demo"', 'id = "other"'), "id"),
        (('id = "demo"', "id = 3"), "id"),
        (('category = "create"', 'category = "Create Stuff"'), "category"),
        (('start = "start.toml"', 'start = "missing.toml"'), "start"),
        (('start = "start.toml"', 'start = "start.png"'), "start"),
        (('difficulty = "easy"', 'difficulty = "trivial"'), "tags.difficulty"),
        (('instruction = "Say hi."', 'instruction = ""'), "instruction"),
        (('golden = "golden.toml"', 'golden = "golden.toml"\nstep_budget = 0'), "step_budget"),
        (('golden = "golden.toml"', 'golden = "golden.toml"\ncolour = "red"'), "colour"),
        (('op = "contains"', 'op = "resembles"'), "cases[0].steps"),
        (('name = "says hi"\n', ""), "cases[0].name"),
    ],
)
def test_errors_name_the_file_and_field(tmp_path, change, field):
    folder = make_task(tmp_path, GOOD.replace(*change))
    with pytest.raises(TaskError) as err:
        read_task(folder)
    assert err.value.field == field and str(folder / "task.toml") in str(err.value)


def test_test_module_errors(tmp_path):
    folder = make_task(tmp_path)
    text = GOOD.replace('golden = "golden.toml"', 'golden = "golden.toml"\ntests = "tests.py"')
    (folder / "task.toml").write_text(text)
    (folder / "tests.py").write_text("def test_two(run, extra):\n    pass\n")
    with pytest.raises(TaskError, match="exactly one argument"):
        read_task(folder)
    (folder / "tests.py").write_text("import nothing_here\n")
    with pytest.raises(TaskError, match="failed to import"):
        read_task(folder)
    (folder / "tests.py").write_text("def test_b(run):\n    pass\n\ndef test_a(run):\n    pass\n")
    assert read_task(folder).test_names == ["b", "a", "says hi"]  # file order, then cases


def test_registry_unknown_ids_list_close_matches(tmp_path):
    make_task(tmp_path)
    registry = TaskRegistry(tmp_path)
    assert [t.id for t in registry.list("create")] == ["demo"] and registry.list("debug") == []
    with pytest.raises(UnknownTaskError, match="did you mean: demo"):
        registry.load("dmeo")


def test_shipped_suite_loads_and_samples():
    tasks = list_tasks()
    assert len(tasks) >= 12
    cats = {t.category for t in tasks}
    assert {"create", "debug", "extend", "compute"} <= cats
    for cat in ("create", "debug", "extend", "compute"):
        assert len(list_tasks(cat)) >= 3
    a = [load_task(t.id).id for t in tasks]
    assert a == sorted(a)
    from scratch_gym.tasks import sample_task

    assert sample_task(7).id == sample_task(random.Random(7)).id
    assert {sample_task(s, "debug").category for s in range(10)} == {"debug"}
    with pytest.raises(UnknownTaskError) as err:
        load_task("say-helo")
    assert "say-hello" in err.value.close_matches


def test_declarative_conditions():
    cond = parse_cond(
        {"all": [{"sprite": "Cat", "prop": "x", "op": ">", "value": 3}, {"idle": True}]}
    )
    assert cond.spec["all"][0] == {
        "left": {"kind": "sprite", "sprite": "Cat", "prop": "x"},
        "op": ">",
        "right": 3,
        "label": "Cat.x",
    }
    with pytest.raises(StepError, match="names no query"):
        parse_cond({"op": "==", "value": 1})
    with pytest.raises(StepError, match="step 2"):
        validate_steps([{"green_flag": True}, {"expect": {"var": "n", "op": "~", "value": 1}}])


def test_duplicate_task_ids_across_categories_are_rejected(tmp_path):
    import shutil

    from scratch_gym.paths import tasks_dir

    source = tasks_dir() / "create" / "say-hello"
    for category in ("create", "debug"):
        shutil.copytree(source, tmp_path / category / "say-hello")
    with pytest.raises(TaskError, match="used twice"):
        TaskRegistry(tmp_path).ids()
