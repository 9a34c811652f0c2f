"""``scratch-gym tasks export-scratchworld``: every shipped task written as a ScratchWorld task, in
the layout and schema of their checkout, read back by scratch-gym's importer and by serve's name
rules; tasks that cannot be expressed are refused by name (no browser)."""

from __future__ import annotations

import json
import os
import subprocess
import textwrap
from pathlib import Path

import pytest

from scratch_gym.cli import main
from scratch_gym.program.projects import check_sb3
from scratch_gym.scratchworld.checkout import SCRIPTS_DIR, STATIC_DIR, TASKS_DIR
from scratch_gym.scratchworld.export import MANIFEST, ExportProblems, export_tasks
from scratch_gym.scratchworld.exported import ExportedSuite, read_marker, task_digest
from scratch_gym.scratchworld.tasks import scratchworld_tasks
from scratch_gym.serve.evaluation import suite_for
from scratch_gym.serve.projects import project_path
from scratch_gym.tasks import list_tasks, load_task, read_task
from scratch_gym.tasks.scaffold import create_scaffold
from tests.serve.test_their_runner import require_client_venv
from tests.shared_data import SCRATCHWORLD_DIR, require_shared

THEIR_FIELDS = {"name", "description", "type", "instruction", "initial_project", "evaluation"}


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("export") / "sw"
    assert main(["tasks", "export-scratchworld", str(out)]) == 0
    return out


def test_every_task_is_written_in_their_schema(exported):
    tasks = list_tasks()
    assert len(tasks) == 97
    listing = json.loads((exported / TASKS_DIR / "all_tasks.json").read_text())
    assert sorted(f for files in listing.values() for f in files) == sorted(
        f"{t.id}.json" for t in tasks
    )
    for task in tasks:
        path = exported / TASKS_DIR / task.category / f"{task.id}.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        assert THEIR_FIELDS <= set(data), path
        assert data["name"] == data["evaluation"]["function"] == path.stem == task.id
        assert data["type"] == task.category and path.name in listing[task.category]
        assert data["instruction"] == " ".join(task.instruction.split())
        assert data["initial_project"] == f"{task.id}.sb3"
        assert isinstance(data["evaluation"]["timeout"], int)
        assert data["scratch_gym"]["tests"] == task.test_names
        for name in (f"{task.id}.sb3", f"{task.id}_golden.sb3"):
            check_sb3(project_path(exported, name).read_bytes(), name)  # serve's name rules
        script = (exported / SCRIPTS_DIR / f"{task.id}.js").read_text(encoding="utf-8")
        assert "module.exports = async (vm, config, cleanup) =>" in script
        assert read_marker(script) == {"id": task.id, "digest": task_digest(task)}
        assert data["scratch_gym"]["digest"] == task_digest(task)
        assert suite_for(exported, task.id, "virtual") == ExportedSuite(
            task.id, task_digest(task), task.id
        )
    manifest = json.loads((exported / MANIFEST).read_text())
    assert len(manifest["tasks"]) == 97


def test_their_task_files_hold_no_field_ours_lack(exported):
    theirs = sorted(require_shared(SCRATCHWORLD_DIR / TASKS_DIR).glob("*/*.json"))
    assert theirs, f"no task files in {SCRATCHWORLD_DIR / TASKS_DIR}"
    for path in theirs:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert set(data) <= THEIR_FIELDS, path
        assert set(data["evaluation"]) <= {"function", "timeout", "description", "test_cases"}


def test_the_export_reads_back_as_a_checkout_scored_by_our_tests(exported):
    tasks = scratchworld_tasks(exported)
    assert len(tasks) == 97
    for task in tasks:
        name = task.id.removeprefix("scratchworld-")
        original = load_task(name)
        assert task.category == original.category
        assert task.external == ExportedSuite(name, task_digest(original), name)
        assert task.external.task().id == name
        assert task.golden is not None and task.golden.path.name == f"{name}_golden.sb3"
        assert task.start.path.read_bytes()[:2] == b"PK"


def test_their_runner_finds_every_exported_task(exported, tmp_path):
    """Their task_runner.py's own task-list and task-config readers, in their client venv."""
    require_shared(SCRATCHWORLD_DIR / "task_runner.py")
    python = require_client_venv()
    code = textwrap.dedent(
        f"""
        import json, sys
        from pathlib import Path
        sys.path.insert(0, {str(SCRATCHWORLD_DIR)!r})
        import task_runner
        tasks_dir = {str(exported / TASKS_DIR)!r}
        todo = task_runner.prepare_task_execution_list("all_tasks.json", Path("results"), tasks_dir)
        runner = task_runner.TaskRunner.__new__(task_runner.TaskRunner)
        runner.tasks_dir = Path(tasks_dir)
        out = {{}}
        for kind, files in todo.items():
            for f in files:
                config = runner.load_task_config(f[:-5])
                out[config["name"]] = [kind, config["type"], config["initial_project"]]
        print(json.dumps(out))
        """
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run(
        [str(python), "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    found = json.loads(proc.stdout.strip().splitlines()[-1])
    assert found == {t.id: [t.category, t.category, f"{t.id}.sb3"] for t in list_tasks()}


def test_a_selection_is_exported_and_an_earlier_export_needs_force(tmp_path, capsys):
    out = tmp_path / "sel"
    assert main(["tasks", "export-scratchworld", str(out), "--category", "debug", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    debug = [t.id for t in list_tasks("debug")]
    assert sorted(t["id"] for t in payload["tasks"]) == sorted(debug)
    assert [p.stem for p in (out / TASKS_DIR).glob("*/*.json")] and not list(
        (out / TASKS_DIR / "create").iterdir()
    )
    assert main(["tasks", "export-scratchworld", str(out), "say-hello"]) == 2
    assert "--force" in capsys.readouterr().err
    assert main(["tasks", "export-scratchworld", str(out), "say-hello", "--force"]) == 0
    assert sorted(p.name for p in (out / STATIC_DIR).iterdir()) == [
        "say-hello.sb3",
        "say-hello_golden.sb3",
    ]
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "mine.txt").write_text("x")
    assert main(["tasks", "export-scratchworld", str(tmp_path / "other"), "--force"]) == 2
    assert (tmp_path / "other" / "mine.txt").is_file()


def test_a_task_that_cannot_be_expressed_is_refused_by_name(tmp_path, capsys):
    mine = tmp_path / "mine"
    create_scaffold(mine, "puzzle-one", "puzzle")
    out = tmp_path / "out"
    args = ["tasks", "export-scratchworld", str(out), "say-hello", "puzzle-one"]
    assert main([*args, "--tasks-dir", str(mine)]) == 2
    captured = capsys.readouterr()
    assert "cannot export puzzle-one: category 'puzzle'" in captured.out
    assert "1 task(s) cannot be exported; nothing written" in captured.err
    assert not out.exists()
    puzzle = read_task(mine / "puzzle" / "puzzle-one")
    with pytest.raises(ExportProblems, match="puzzle-one: category 'puzzle'") as info:
        export_tasks([load_task("say-hello"), puzzle], out)
    assert list(info.value.problems) == ["puzzle-one"] and not out.exists()


def test_a_changed_task_is_refused_and_garbage_markers_are_not_ours():
    task = load_task("say-hello")
    suite = ExportedSuite(task.id, "sha256:" + "0" * 64)
    with pytest.raises(ValueError, match="changed since it was exported"):
        suite.task()
    with pytest.raises(ValueError, match="not a scratch-gym task here"):
        ExportedSuite("no-such-task", task_digest(task)).task()
    assert read_marker('// scratch-gym-task: {"id": "../x", "digest": "sha256:1"}') is None
    assert read_marker('// scratch-gym-task: {"id": "a"}') is None
    assert read_marker("module.exports = async () => true;") is None
