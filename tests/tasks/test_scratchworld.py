"""The ScratchWorld importer on a small checkout in its format (tests/fixtures/scratchworld)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scratch_gym.program import ProjectBuilder
from scratch_gym.scratchworld.evaluation import results_from
from scratch_gym.scratchworld.tasks import ScratchWorldCheckout
from scratch_gym.tasks import Evaluator, TaskError
from scratch_gym.tasks.projects import load_project

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "scratchworld"
SOLVED = (
    "when @greenFlag clicked\nsay [Hello!]\n\nwhen [right arrow v] key pressed\nmove (10) steps"
)


def test_reads_the_checkout():
    checkout = ScratchWorldCheckout(FIXTURE)
    (task,) = checkout.tasks()
    assert task.id == "scratchworld-greet_and_move" and task.category == "create"
    assert task.start.path.name == "greet_and_move.sb3" and task.golden is None
    assert task.external.function == "greet_and_move" and "EvaluationUtils" in task.external.utils
    assert checkout.load("greet_and_move").id == task.id


def test_rejects_a_broken_checkout(tmp_path):
    with pytest.raises(FileNotFoundError, match="not a ScratchWorld checkout"):
        ScratchWorldCheckout(tmp_path)
    for sub in ("tasks/create", "scratch-gui/static", "scratch-bench-api/api/evaluation_scripts"):
        (tmp_path / sub).mkdir(parents=True)
    bad = tmp_path / "tasks" / "create" / "x.json"
    bad.write_text(
        '{"name": "x", "type": "create", "instruction": "i", "initial_project": "x.sb3", '
        '"evaluation": {"function": "x"}}'
    )
    with pytest.raises(TaskError, match=r"x\.json: field 'initial_project'"):
        ScratchWorldCheckout(tmp_path).tasks()


def test_scores_start_and_solution_with_its_own_script(page):
    task = ScratchWorldCheckout(FIXTURE).load("greet_and_move")
    page.load_project(load_project(task.start))
    page.settle()
    evaluator = Evaluator(page, task)
    start = evaluator.evaluate()
    assert [t.name for t in start.tests] == ["says_hello_on_green_flag", "moves_right_on_arrow_key"]
    assert start.psr == 0.0 and "Timeout" in start.tests[0].message
    page.load_project(ProjectBuilder().sprite("Sprite1", scripts=SOLVED).sb3_bytes())
    page.settle()
    before = page.project_json()
    solved = evaluator.evaluate()
    assert solved.success and solved.psr == 1.0, solved.to_info()
    assert page.project_json() == before  # scored on the evaluation copy, not the agent's VM


def test_result_objects_without_details():
    counts = results_from("f", {"success": False, "passed_tests": 1, "total_tests": 3})
    assert [t.passed for t in counts] == [True, False, False]
    assert [t.passed for t in results_from("f", True)] == [True]
    assert not results_from("f", "weird")[0].passed
