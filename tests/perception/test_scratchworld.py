"""ScratchWorld's Visual Perception benchmark imported: its 200 items and 15 tags, its answer rules
checked against its own runner's code, our tables checked against its own results script on the
same answers folder, the environment, and ``eval --suite perception --scratchworld``.

The checkout is ../shared/data/scratchworld (tests/shared_data.py): without it those tests skip,
and with ``$SCRATCH_GYM_REQUIRE_SHARED=1`` (CI) they fail. Bad input is tested on a tiny checkout
written here (three items of our own, not theirs)."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from PIL import Image

from scratch_gym.cli import main
from scratch_gym.envs.perception import PerceptionEnv
from scratch_gym.scratchworld.checkout import PERCEPTION_TASKS_DIR, SCREENSHOTS_DIR
from scratch_gym.scratchworld.perception import (
    TAGS,
    ScratchWorldPerceptionError,
    is_correct,
    load_item,
    load_items,
)
from scratch_gym.scratchworld.perception_scores import (
    compare_with_their_scorer,
    equality_check,
    probe_answers,
    run_their_scorer,
    score_answers,
    their_judge,
    write_answers,
)
from scratch_gym.suites import make_suite
from tests.agents.chat_server import ChatServer
from tests.shared_data import REQUIRE_SHARED, SCRATCHWORLD_DIR, require_shared

# items per tag in ScratchWorld's benchmark (its runner's comments and the task files agree)
TAG_COUNTS = {
    "connection_yes": 30, "connection_no_easy": 15, "connection_no_hard": 15,
    "existence_yes_clear": 15, "existence_yes_occluded": 15, "existence_yes_unidentifiable": 10,
    "existence_no_absent": 15, "existence_no_confusable": 15, "existence_no_unidentifiable": 10,
    "equivalence_numeric_yes": 8, "equivalence_numeric_no": 7, "equivalence_dropdown_yes": 8,
    "equivalence_dropdown_no": 7, "exact_match_numeric": 15, "exact_match_dropdown": 15,
}  # fmt: skip


@pytest.fixture(scope="module")
def checkout() -> Path:
    require_shared(SCRATCHWORLD_DIR / PERCEPTION_TASKS_DIR)
    return SCRATCHWORLD_DIR


@pytest.fixture(scope="module")
def their_scorer(checkout: Path) -> Path:
    """Their results script imports scikit-learn; it runs with this interpreter (skips without
    it, and fails under ``$SCRATCH_GYM_REQUIRE_SHARED=1``, like missing data)."""
    if importlib.util.find_spec("sklearn") is None:
        reason = "scikit-learn is not installed: ScratchWorld's results script imports it"
        if os.environ.get(REQUIRE_SHARED) == "1":
            pytest.fail(f"{reason}; {REQUIRE_SHARED}=1 requires it")
        pytest.skip(reason)
    return checkout


# -- a tiny checkout of our own, for bad input ------------------------------------------------------
def tiny_checkout(root: Path) -> Path:
    (root / PERCEPTION_TASKS_DIR).mkdir(parents=True)
    (root / SCREENSHOTS_DIR).mkdir(parents=True)
    Image.new("RGB", (1280, 720), (240, 240, 250)).save(root / SCREENSHOTS_DIR / "a.png")
    items = [
        ("1", "Is the `move steps` block directly connected to the block below it?",
         "connection", "connection_yes", "YES"),
        ("2", "Is there a `say` block?", "existence", "existence_no_absent", "NO"),
        ("3", "What number is shown in the numeric field of the `turn degrees` block?",
         "field", "exact_match_numeric", "15"),
    ]  # fmt: skip
    for task_id, instruction, task_type, tag, truth in items:
        write_item(root, task_id, instruction=instruction, task_type=task_type, tag=tag,
                   ground_truth=truth)  # fmt: skip
    return root


def write_item(root: Path, task_id: str, **fields: object) -> Path:
    data = {"task_id": task_id, "screenshot": "a.png", "prompt": "(not read)", **fields}
    path = root / PERCEPTION_TASKS_DIR / f"{task_id}.json"
    path.write_text(json.dumps(data))
    return path


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    return tiny_checkout(tmp_path / "ScratchWorld")


def test_the_answer_rules():
    assert is_correct("binary", "YES", "yes") and is_correct("binary", "NO", "  No \n")
    assert not is_correct("binary", "YES", "YES.") and not is_correct("binary", "YES", "")
    assert not is_correct("binary", "NO", None)
    assert is_correct("exact", "random position", " random position ")
    assert not is_correct("exact", "random position", "Random position")
    assert not is_correct("exact", "10", "10.0") and not is_correct("exact", "-160", "")


def test_a_tiny_checkout_imports_and_its_env_passes_check_env(tiny):
    items = load_items(tiny)
    assert [i.task_id for i in items] == ["1", "2", "3"]
    assert [i.rule for i in items] == ["binary", "binary", "exact"]
    assert load_item(tiny, "scratchworld-vp-3") == items[2]
    env = PerceptionEnv(scratchworld=tiny, render_mode="rgb_array")
    check_env(env, skip_render_check=True)
    obs, info = env.reset(options={"item": "3"})
    assert info == {"id": "scratchworld-vp-3", "kind": "field", "subtype": "exact_match_numeric"}
    assert obs["screenshot"].shape == (720, 1280, 3) and obs["screenshot"].dtype == np.uint8
    assert obs["question"].startswith(items[2].instruction) and "case matters" in obs["question"]
    assert "15" not in obs["question"]  # the answer is not in the question
    _, reward, terminated, _, info = env.step(" 15 ")
    assert (reward, terminated, info["correct"], info["answer"]) == (1.0, True, True, "15")
    env.reset(options={"item": "1"})
    assert env.step("yes")[1] == 1.0
    env.reset(options={"item": "1"})
    assert env.step("YES.")[1] == 0.0  # their rule: no punctuation aside
    with pytest.raises(ValueError, match="no ScratchWorld perception item '9'"):
        env.reset(options={"item": "9"})


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda r: write_item(r, "4", instruction="?", task_type="field", tag="exact_match_text",
                              ground_truth="x"), "unknown tag 'exact_match_text'"),
        (lambda r: write_item(r, "4", instruction="?", task_type="existence",
                              tag="connection_yes", ground_truth="YES"),
         "task_type 'existence' does not go with tag connection_yes"),
        (lambda r: write_item(r, "4", instruction="?", task_type="connection",
                              tag="connection_yes", ground_truth="NO"),
         "ground_truth 'NO' does not go with tag connection_yes"),
        (lambda r: write_item(r, "4", task_type="connection", tag="connection_yes",
                              ground_truth="YES"), "instruction must be a non-empty string"),
        (lambda r: write_item(r, "4", instruction="?", task_type="connection",
                              tag="connection_yes", ground_truth="YES", screenshot="b.png"),
         "screenshot 'b.png' is not a file"),
        (lambda r: write_item(r, "4", instruction="?", task_type="connection",
                              tag="connection_yes", ground_truth="YES",
                              screenshot="../tasks/1.json"), "is not a file"),
        (lambda r: (r / PERCEPTION_TASKS_DIR / "5.json").write_text('{"task_id": '), "5.json: not valid JSON"),
        (lambda r: (r / PERCEPTION_TASKS_DIR / "5.json").write_text(json.dumps({
            "task_id": "6", "instruction": "?", "screenshot": "a.png", "task_type": "connection",
            "tag": "connection_yes", "ground_truth": "YES"})),
         "task_id '6' is not the file's name"),
    ],
)  # fmt: skip
def test_a_malformed_item_is_named(tiny, change, message):
    change(tiny)
    with pytest.raises(ScratchWorldPerceptionError, match=message.replace("?", r"\?")):
        load_items(tiny)


def test_a_missing_checkout_is_named(tmp_path, capsys):
    with pytest.raises(ScratchWorldPerceptionError, match="no such ScratchWorld checkout"):
        load_items(tmp_path / "nowhere")
    with pytest.raises(ScratchWorldPerceptionError, match="tasks/ is missing"):
        load_items(tmp_path)
    code = main(["eval", "--suite", "perception", "--scratchworld", str(tmp_path),
                 "--agent", "oracle", "--results", str(tmp_path / "r.jsonl")])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and "holds no Visual Perception benchmark" in err and "Traceback" not in err


def test_answers_to_unknown_items_or_tags_are_named(tiny, tmp_path):
    items = load_items(tiny)
    answers = write_answers(items, {"1": "YES", "3": "15"}, tmp_path / "answers")
    assert score_answers(answers, items).counts()["type"]["ALL"] == (2, 2)
    record = json.loads((answers / "1" / "result.json").read_text())
    (answers / "1" / "result.json").write_text(json.dumps({**record, "tag": "connection_no_hard"}))
    with pytest.raises(ScratchWorldPerceptionError, match="is not item 1's tag"):
        score_answers(answers, items)
    (answers / "1" / "result.json").write_text(json.dumps({**record, "task_id": "77"}))
    with pytest.raises(ScratchWorldPerceptionError, match="'77' is not an item of the benchmark"):
        score_answers(answers, items)


def test_the_cli_refuses_built_in_options_with_scratchworld(tiny, tmp_path, capsys):
    code = main(["eval", "--suite", "perception", "--scratchworld", str(tiny), "--screens", "2",
                 "--agent", "oracle", "--results", str(tmp_path / "r.jsonl")])  # fmt: skip
    assert code == 2 and "--screens choose the built-in questions" in capsys.readouterr().err


def test_an_episode_lost_to_an_error_is_a_wrong_answer_under_its_tag():
    """A record with no answer (the environment failed) still counts, under its category's tag."""
    base = {"agent": "llm", "mode": "perception", "benchmark": "scratchworld"}
    records = [
        {**base, "task": "scratchworld-vp-1", "category": "connection_yes", "status": "success",
         "correct": True, "question": "connection", "subtype": "connection_yes"},
        {**base, "task": "scratchworld-vp-2", "category": "connection_yes",
         "status": "infrastructure_error", "error": "the page died"},
    ]  # fmt: skip
    text = make_suite("perception").report(records)
    assert "| connection_yes | 1 | 2 | 50.00% |" in text and "| ALL | 1 | 2 | 50.00% |" in text
    assert "1 lost to infrastructure errors, counted wrong" in text
    assert "Visual Perception QA (accuracy %)" not in text  # no built-in question was asked


# -- ScratchWorld's own benchmark ---------------------------------------------------------------------
def test_all_200_items_import_with_their_15_tags(checkout):
    items = load_items(checkout)
    assert len(items) == 200 and len({i.task_id for i in items}) == 200
    counts = {tag: sum(i.tag == tag for i in items) for tag in TAGS}
    assert counts == TAG_COUNTS
    assert {i.task_type for i in items} == {"connection", "existence", "field"}
    assert sum(i.rule == "exact" for i in items) == 30
    with Image.open(items[0].screenshot) as img:
        assert img.size == (1280, 720)
    assert len({i.screenshot for i in items}) == 149  # screenshots are shared between items


def test_our_answer_rules_are_their_runners_on_every_item(checkout):
    """Their runner's own two methods (read unmodified from its file) and ours agree on every item
    for every reply: right, lower- and upper-cased, padded, punctuated, wrong, empty."""
    judge = their_judge(checkout)
    items = load_items(checkout)
    checked = 0
    for item in items:
        t = item.ground_truth
        for reply in (t, t.lower(), t.upper(), t.title(), f" {t}\n", f"{t}.", f'"{t}"', t + "0",
                      "YES", "no", "Yes", "", " "):  # fmt: skip
            assert item.is_correct(reply) == judge(item.tag, t, reply), (item.task_id, reply)
            checked += 1
    assert checked == 13 * 200


def test_our_scores_equal_their_results_script_on_the_same_answers(their_scorer, tmp_path):
    """The probe replies, filed with their runner's verdicts, scored by us and by their results
    script (unmodified, run by path): the same counts on every type and tag row, and the same
    printed tables."""
    figures = equality_check(their_scorer, tmp_path / "answers")
    assert figures["perception_items"] == 200 and figures["perception_tags"] == 15
    assert figures["perception_score_equal"] is True and figures["differences"] == []
    items = load_items(their_scorer)
    ours = score_answers(tmp_path / "answers", items)
    assert 0 < ours.correct < 200 and ours.stored_disagreements == 0  # some right, some wrong
    assert ours.markdown() in run_their_scorer(their_scorer, tmp_path / "answers")


def test_the_equality_check_sees_another_rule(their_scorer, tmp_path):
    """Answers filed by a lenient rule (a final full stop and case ignored): their script counts
    the file's verdicts, ours re-judges by their rules, and the comparison names the rows."""
    items = load_items(their_scorer)

    def lenient(tag: str, truth: str, reply: str) -> bool:
        return reply.strip().rstrip(".").upper() == truth.strip().upper() and bool(reply)

    write_answers(items, probe_answers(items), tmp_path / "answers", judge=lenient)
    compared = compare_with_their_scorer(their_scorer, tmp_path / "answers")
    assert not compared["equal"] and any("exact_match" in d for d in compared["differences"])
    assert compared["theirs"]["type"]["ALL"][0] > compared["ours"]["type"]["ALL"][0]


# one item of each tag (the ids ScratchWorld's runner picks for its --small run)
SLICE = ["1", "46", "31", "61", "76", "91", "101", "116", "131", "142", "149", "157", "164",
         "171", "186"]  # fmt: skip


def test_eval_runs_the_llm_agent_on_a_slice_and_prints_their_tables(their_scorer, tmp_path, capsys):
    """``eval --suite perception --scratchworld`` with the llm agent against a scripted local
    endpoint (YES to every yes/no question, ``10`` to every value): one row per tag, the JSON
    line last; then ``perception answers`` files the replies as their answers folder, and their
    results script agrees with ``perception score``."""
    asked: list[dict] = []

    def script(body):
        asked.append(body)
        text = body["messages"][-1]["content"][0]["text"]
        answer = "YES" if "Answer YES or NO." in text else "10"
        return 200, f"Analysis: scripted.\n{json.dumps({'answer': answer})}"

    results = tmp_path / "r.jsonl"
    with ChatServer(script) as server:
        code = main(["eval", "--suite", "perception", "--scratchworld", str(their_scorer),
                     "--agent", "llm", "--base-url", server.base_url, "--model", "scripted",
                     "--tasks", *SLICE, "--results", str(results), "--no-progress", "--json"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0 and len(asked) == 15
    content = asked[0]["messages"][-1]["content"]
    assert content[1]["image_url"]["url"].startswith("data:image/png;base64,")
    items = {i.task_id: i for i in load_items(their_scorer)}
    assert items["1"].instruction in content[0]["text"]
    for tag, (_, _, answer) in TAGS.items():
        right = answer == "YES"  # the two values asked here are not 10
        assert f"| {tag} | {int(right)} | 1 | {100.0 * right:.2f}% |" in out, tag
    assert "| ALL | 6 | 15 | 40.00% |" in out
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["suite"] == "perception" and summary["items"] == 15 and summary["tags"] == 15
    assert (
        summary["accuracy"] == pytest.approx(6 / 15) and summary["by_tag"]["connection_yes"] == 1.0
    )

    answers = tmp_path / "answers"
    assert main(["perception", "answers", "--scratchworld", str(their_scorer),
                 "--results", str(results), "--answers", str(answers)]) == 0  # fmt: skip
    assert len(list(answers.iterdir())) == 15
    capsys.readouterr()
    assert main(["perception", "score", "--scratchworld", str(their_scorer), "--answers",
                 str(answers), "--check", "--json"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "ScratchWorld's results script: equal" in out
    scored = json.loads(out.strip().splitlines()[-1])
    assert scored["score_equal"] is True and scored["correct"] == 6 and scored["answers"] == 15


def test_a_random_agent_draws_anew_on_each_item_and_repeats_on_a_rerun(tiny, tmp_path, capsys):
    """The runner seeds the agent per task (``agent_seed``): a random agent's yes/no answers
    over a run are not one answer copied to every item, and a rerun gives the same answers."""
    for n in range(4, 16):
        write_item(tiny, str(n), instruction=f"Is there a `say` block number {n}?",
                   task_type="existence", tag="existence_no_absent", ground_truth="NO")  # fmt: skip

    def answers(name: str) -> list[str]:
        results = tmp_path / name
        code = main(["eval", "--suite", "perception", "--scratchworld", str(tiny), "--agent",
                     "random", "--results", str(results), "--no-progress"])  # fmt: skip
        assert code == 0, capsys.readouterr().err
        records = [json.loads(line) for line in results.read_text().splitlines()]
        ordered = sorted(records, key=lambda r: r["task"])
        return [r["given"] for r in ordered if r["tag"] == "existence_no_absent"]

    first = answers("a.jsonl")
    assert len(first) == 13 and {a.upper() for a in first} == {"YES", "NO"}, first
    assert answers("b.jsonl") == first
