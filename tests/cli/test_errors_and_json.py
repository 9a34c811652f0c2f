"""The command line's contract with its user: every bad argument, path or file is one line
``error: ...`` on stderr and exit code 2 (no traceback), on every subcommand; every ``--json``
line is valid JSON (``null``, never ``NaN``); ``--version``; progress bars in a redirected log."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from scratch_gym import __version__
from scratch_gym.cli import SUBCOMMANDS, main
from scratch_gym.progress import progress_bar
from scratch_gym.records.text import json_line


def _strict(text: str) -> object:
    def refuse(constant: str) -> object:
        raise AssertionError(f"{constant} in JSON output: {text[:300]}")

    return json.loads(text, parse_constant=refuse)


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    corrupt = tmp_path / "corrupt.sb3"
    corrupt.write_bytes(b"PK\x03\x04 not really a zip")
    refs = tmp_path / "refs.jsonl"
    refs.write_text(json.dumps({"key": "a", "nl": "say hi", "pseudocode": "say [hi]"}) + "\n")
    return {
        "tmp": str(tmp_path),
        "missing": str(tmp_path / "missing.sb3"),
        "corrupt": str(corrupt),
        "refs": str(refs),
        "results": str(tmp_path / "r.jsonl"),
    }


# (argv, what the error line must say); {name} is filled from the `files` fixture
BAD_ARGUMENTS = [
    (["install", "--bogus"], "scratch-gym install: unrecognized arguments: --bogus"),
    (["envs", "--bogus"], "scratch-gym envs: unrecognized arguments: --bogus"),
    (["run", "--project", "{missing}"], "argument --project: no such file"),
    (["run", "--project", "{corrupt}"], "not a valid .sb3 (zip) archive"),
    (["run", "--env", "ScratchWorld-Primitve-v0"], "did you mean 'ScratchWorld-Primitive-v0'"),
    (["run", "--agent", "oracle"], "--agent oracle needs --task ID"),
    (["run", "--task", "fix-bounse"], "unknown task 'fix-bounse'"),
    (["run", "--max-steps", "0"], "argument --max-steps: 0 is below 1"),
    (["eval", "--categories", "creat", "--results", "{results}"], "did you mean 'create'?"),
    (["eval", "--report", "{missing}"], "argument --report: no such file"),
    (["eval", "--runs", "0"], "argument --runs/-k: 0 is below 1"),
    (["eval", "--suite", "perception", "--setting", "gt_start"], "--setting does not apply"),
    (["eval", "--suite", "scratchworld", "--scratchworld", "{missing}"], "no such folder"),
    (["eval", "--agent", "oracle", "--block-reference"], "--block-reference is for the llm agent"),
    (["eval", "--observation", "screen", "--mode", "composite"], "'screen' is for primitive mode"),
    (["eval", "--suite", "perception", "--observation", "paper"], "--observation does not apply"),
    (["run", "--observation", "screen"], "--observation goes with --task"),
    (
        ["run", "--task", "say-hello", "--mode", "composite", "--observation", "screen"],
        "'screen' is for primitive mode",
    ),  # fmt: skip
    (["demos", "--out", "{tmp}", "--obs-size", "3"], "WxH"),
    (["tasks", "list", "--category", "creat"], "did you mean 'create'?"),
    (["tasks", "check"], "tasks check needs task ids, or --all"),
    (["tasks", "evaluate", "fix-bounce", "{missing}"], "argument project: no such file"),
    (["tasks", "evaluate", "fix-bounce", "{corrupt}"], "not a valid .sb3 (zip) archive"),
    (["tasks", "new", "Bad!", "--category", "create", "--dir", "{tmp}"], "must be lowercase"),
    (["tasks", "--stats", "--oracle-results", "{missing}"], "no such file"),
    (["single-drag"], "single-drag needs --agent NAME or --recompute-regions"),
    (["single-drag", "--agent", "oracle", "--tasks", "nope"], "unknown single-drag task"),
    (["single-drag", "pool", "build", "--n", "-1", "--out", "{tmp}"], "-1 is below 0"),
    (["nl2scratch", "--references", "{missing}", "--predictions", "{refs}"], "no such file"),
    (
        ["nl2scratch", "--references", "{refs}", "--predictions", "{refs}", "--bootstrap", "-1"],
        "--bootstrap must be 0 or more",
    ),  # fmt: skip
    (["perception", "eval", "--dataset", "{tmp}", "--predictions", "{missing}"], "no such file"),
    (["perception", "export"], "needs --out DIR"),
    (["fuzz", "--n", "-1"], "argument --n: -1 is below 1"),
    (["serve", "--scratchworld", "{missing}"], "no such ScratchWorld checkout"),
    (["blocks", "--bogus"], "scratch-gym blocks: unrecognized arguments: --bogus"),
    (["blocks", "--category", "moton"], "unknown category 'moton' (allowed: motion, looks"),
]


def test_the_bad_arguments_cover_every_subcommand():
    assert {argv[0] for argv, _ in BAD_ARGUMENTS} == set(SUBCOMMANDS)


@pytest.mark.parametrize(("argv", "says"), BAD_ARGUMENTS, ids=lambda v: " ".join(v)[:60])
def test_a_bad_argument_is_one_error_line_and_exit_2(argv, says, files, capsys):
    code = main([a.format(**files) for a in argv])
    err = capsys.readouterr().err
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert says in lines[0], lines[0]


def test_the_real_command_exits_2_with_one_line_for_a_missing_and_a_corrupt_project(files):
    for project in (files["missing"], files["corrupt"]):
        done = subprocess.run(
            [sys.executable, "-m", "scratch_gym", "run", "--project", project],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith("error: scratch-gym run: argument --project: ")
        assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"scratch-gym {__version__}"


def test_json_lines_have_null_for_non_finite_numbers():
    text = json_line({"psr": float("nan"), "ci": [np.float32("inf"), -np.inf], "n": np.int64(3)})
    assert _strict(text) == {"ci": [None, None], "n": 3, "psr": None}


def _json_commands(files: dict[str, str], tmp: Path) -> list[list[str]]:
    results = tmp / "results.jsonl"
    record = {"key": "oracle|primitive|say-hello|0", "agent": "oracle", "mode": "primitive",
              "suite": "tasks", "task": "say-hello", "category": "create", "run": 0,
              "status": "success", "success": True, "psr": float("nan"), "steps": 3,
              "wall_s": float("inf")}  # fmt: skip
    infra = {**record, "key": "oracle|primitive|fix-bounce|0", "task": "fix-bounce",
             "category": "debug", "status": "infrastructure_error", "error": "page died"}  # fmt: skip
    results.write_text(
        "\n".join(json.dumps(r) for r in (record, infra)) + "\n"
    )  # json.dumps writes NaN: a file as an older version wrote it
    preds = tmp / "preds.jsonl"
    preds.write_text(json.dumps({"key": "a", "prediction": "say [hi]"}) + "\n")
    return [
        ["envs", "--json"],
        ["blocks", "--json"],
        ["tasks", "list", "--category", "create", "--json"],
        ["tasks", "--stats", "--json"],
        ["tasks", "--stats", "--oracle-results", str(results), "--json"],
        ["tasks", "new", "my-task", "--category", "create", "--dir", str(tmp / "t"), "--json"],
        ["eval", "--report", str(results), "--json"],
        [
            "nl2scratch",
            "--references",
            files["refs"],
            "--predictions",
            str(preds),
            "--no-parse",
            "--bootstrap",
            "0",
            "--quiet",
            "--json",
        ],  # fmt: skip
    ]


def test_every_cheap_json_command_prints_valid_json(files, tmp_path, capsys):
    for argv in _json_commands(files, tmp_path):
        code = main(argv)
        out = capsys.readouterr().out.strip().splitlines()
        assert code in (0, 1), argv
        payload = _strict(out[-1])
        assert isinstance(payload, dict) and payload, argv
    # the report of a NaN psr says null; the failure under the table names its first message
    main(["eval", "--report", str(tmp_path / "results.jsonl"), "--json"])
    out = capsys.readouterr().out
    summary = _strict(out.strip().splitlines()[-1])
    assert summary["psr"] is None and summary["episodes"] == 2  # the infra error counts
    assert summary["infra"] == 1 and summary["sr"] == 0.5
    assert " nan " not in out  # the table shows '-' for the NaN psr
    assert summary["errors"]["infrastructure_error"] == {
        "count": 1,
        "task": "fix-bounce",
        "first": "page died",
    }
    assert "infrastructure errors: 1 of 2 episodes; first (fix-bounce): page died" in out


def test_progress_in_a_log_is_one_line_per_update():
    log = io.StringIO()  # not a terminal
    for _ in progress_bar(range(3), desc="episodes", file=log, mininterval=0, miniters=1):
        pass
    text = log.getvalue()
    assert "\r" not in text and "\x1b[" not in text
    lines = text.strip().splitlines()
    assert len(lines) >= 4 and all(line.startswith("episodes:") for line in lines)
    assert "3/3" in lines[-1]
