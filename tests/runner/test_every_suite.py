"""One runner for every suite: each suite runs through ``scratch-gym eval --suite`` with the oracle
and the random agent on a small slice, writes the one results schema and prints its paper's table
and the common JSON keys."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from scratch_gym.cli import eval as eval_cmd
from scratch_gym.ocr import missing_packages

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "scratchworld"
RECORD_KEYS = {"key", "agent", "agent_name", "mode", "suite", "task", "category", "run", "seed",
               "status", "success", "psr", "steps", "wall_s"}  # fmt: skip
JSON_KEYS = {"suite", "agent", "episodes", "success_rate", "results"}
CORPUS = [
    {"key": "k1", "nl": "When the green flag is clicked, move 10 steps.",
     "pseudocode": ["when @greenFlag clicked", "move (10) steps"]},
    {"key": "k2", "nl": "When space is pressed, say Hello! for 2 seconds.",
     "pseudocode": ["when (space v) key pressed", "say [Hello!] for (2) seconds"]},
]  # fmt: skip


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    eval_cmd.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.handler(args)


def run_suite(argv: list[str], results: Path, capsys) -> tuple[str, dict, list[dict]]:
    code = main(["eval", *argv, "--results", str(results), "--no-progress", "--json"])
    out = capsys.readouterr().out
    assert code == 0, out
    summary = json.loads(out.strip().splitlines()[-1])
    records = [json.loads(line) for line in results.read_text().splitlines()]
    return out, summary, records


def check_common(summary: dict, records: list[dict], suite: str, agent: str) -> None:
    assert JSON_KEYS <= set(summary), sorted(JSON_KEYS - set(summary))
    assert summary["suite"] == suite and summary["agent"] == agent
    assert summary["episodes"] == len(records) > 0
    for r in records:
        assert RECORD_KEYS <= set(r), sorted(RECORD_KEYS - set(r))
        assert r["suite"] == suite and r["status"] in ("success", "failure"), r


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    path = tmp_path / "refs.jsonl"
    path.write_text("\n".join(json.dumps(row) for row in CORPUS) + "\n")
    return path


@pytest.mark.slow
@pytest.mark.browser
def test_single_drag_suite_in_worker_processes(tmp_path, capsys):
    argv = ["--suite", "single-drag", "--tasks", "dc-01", "dc-05"]
    out, s, records = run_suite(
        [*argv, "--agent", "oracle", "--workers", "2"], tmp_path / "o", capsys
    )
    check_common(s, records, "single-drag", "oracle")
    assert "Pass@1" in out and "Start Err (px)" in out
    assert s["pass@1"] == 1.0 and s["success_rate"] == 1.0 and s["start_acc"] == 1.0
    out, s, records = run_suite([*argv, "--agent", "random"], tmp_path / "r", capsys)
    check_common(s, records, "single-drag", "random")
    assert s["pass@1"] == 0.0 and s["start_err_px"] > 0


@pytest.mark.browser
def test_perception_suite(tmp_path, capsys):
    argv = ["--suite", "perception", "--screens", "1"]
    out, s, records = run_suite([*argv, "--agent", "oracle"], tmp_path / "o", capsys)
    check_common(s, records, "perception", "oracle")
    assert "connection" in out and "existence" in out and "field" in out
    assert s["accuracy"] == 1.0 and len(records) == 3
    assert {r["question"] for r in records} == {"connection", "existence", "field"}
    out, s, records = run_suite([*argv, "--agent", "random"], tmp_path / "r", capsys)
    check_common(s, records, "perception", "random")
    assert s["by_kind"]["field"] == 0.0  # yes/no guesses never name a field value


@pytest.mark.browser
def test_nl2scratch_suite(tmp_path, corpus, capsys):
    argv = ["--suite", "nl2scratch", "--references", str(corpus)]
    out, s, records = run_suite([*argv, "--agent", "oracle"], tmp_path / "o", capsys)
    check_common(s, records, "nl2scratch", "oracle")
    assert "SAC_ref avg" in out and "EM" in out
    assert s["em"] == 1.0 and s["sac_ref_avg"] == 1.0 and s["ps"] == 1.0
    out, s, records = run_suite([*argv, "--agent", "random"], tmp_path / "r", capsys)
    check_common(s, records, "nl2scratch", "random")
    assert s["em"] == 0.0 and s["sac_ref_avg"] < 1.0
    # without references: the task suite's instructions and golden scripts
    argv = ["--suite", "nl2scratch", "--tasks", "say-hello", "--agent", "oracle"]
    out, s, records = run_suite(argv, tmp_path / "t", capsys)
    check_common(s, records, "nl2scratch", "oracle")
    assert records[0]["category"] == "tasks" and s["sac_ref_avg"] == 1.0


@pytest.mark.browser
def test_task_and_scratchworld_suites(tmp_path, capsys):
    argv = ["--tasks", "say-hello", "--mode", "composite", "--agent", "oracle"]
    out, s, records = run_suite(argv, tmp_path / "o", capsys)
    check_common(s, records, "tasks", "oracle")
    assert "Composite mode" in out and s["sr"] == 1.0
    assert records[0]["observation"] == "pseudocode"
    argv = ["--tasks", "say-hello", "--agent", "random", "--max-steps", "2"]
    if not missing_packages("paddleocr"):  # the paper's observation: DOM + PaddleOCR
        argv += ["--observation", "paper"]
    out, s, records = run_suite(argv, tmp_path / "r", capsys)
    check_common(s, records, "tasks", "random")
    assert "Primitive mode" in out and records[0]["steps"] <= 2
    if "--observation" in argv:
        r = records[0]
        assert r["observation"] == s["observation"] == "screen_elements_ocr"
        assert "observation screen_elements_ocr: screenshot + DOM elements + PaddleOCR" in out
        assert r["elements_per_step"] > 20 and r["ocr_texts_per_step"] > 0
        assert r["ocr_ms_per_step"] > 0 and r["ocr_steps"] == r["steps"] + 1
        assert "elements/step" in out and "OCR ms/step" in out
        assert s["ocr_ms_per_step"] == r["ocr_ms_per_step"]
    argv = ["--suite", "scratchworld", "--scratchworld", str(FIXTURE), "--agent", "random",
            "--max-steps", "2", "--observation", "screen"]  # fmt: skip
    out, s, records = run_suite(argv, tmp_path / "s", capsys)
    check_common(s, records, "scratchworld", "random")
    assert records[0]["task"] == "scratchworld-greet_and_move"
    assert records[0]["observation"] == "screen" and "elements_per_step" not in records[0]
    assert "observation screen: screenshot only" in out and "elements/step" not in out


def test_a_suite_option_on_the_wrong_suite_is_a_clear_error(tmp_path, capsys):
    code = main(["eval", "--suite", "perception", "--setting", "gt_start",
                 "--results", str(tmp_path / "x")])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2
    assert "--setting does not apply to the perception suite" in err
    code = main(["eval", "--suite", "single-drag", "--mode", "composite",
                 "--results", str(tmp_path / "x")])  # fmt: skip
    assert code == 2
    assert "runs in mode single_drag, not 'composite'" in capsys.readouterr().err
