"""Perception QA: deterministic scenes, answers checked against a second source, env and CLI."""

from __future__ import annotations

import argparse
import json
import random

import gymnasium as gym
import pytest

from scratch_gym.cli import perception as cli
from scratch_gym.perception.dataset import render, scene_questions
from scratch_gym.perception.questions import describe, is_correct, make_questions
from scratch_gym.perception.scenes import make_scene

SCENES = (0, 3)  # seed 0: scene 0 has an occluded block and a near miss, scene 3 a near miss


def test_scenes_are_deterministic_and_build():
    for i in range(12):
        a, b = make_scene(0, i), make_scene(0, i)
        assert a == b and a.project() == b.project()
    assert make_scene(0, 0) != make_scene(1, 0)
    features = {f for i in range(12) for f in make_scene(0, i).features}
    assert features == {"occlusion", "near_miss"}


def test_matching_rules():
    yes = {"kind": "existence", "answer": "yes"}
    assert is_correct(yes, "Yes") and is_correct(yes, " YES. ") and not is_correct(yes, "no")
    field = {"kind": "field", "answer": "Hello!"}
    assert is_correct(field, "Hello!") and is_correct(field, " Hello! ")
    assert not is_correct(field, "hello!") and not is_correct(field, "Hello")


def test_field_answers_are_scored_by_equivalence():
    """Numbers as numbers, dropdown values as their menus show them (ScratchWorld's field
    questions: ``equal to -90?``, ``set to `up arrow`?``, ``random position``), text exact."""
    number = {"kind": "field", "subtype": "value", "answer": "10"}
    for same in ("10", "10.0", " 10 ", "+10", "1e1", "`10`", '"10"', "10."):
        assert is_correct(number, same), same
    for other in ("10.5", "100", "ten", ""):
        assert not is_correct(number, other), other
    assert is_correct({"kind": "field", "subtype": "value", "answer": "-90"}, "-90.0")
    assert is_correct({"kind": "field", "subtype": "value", "answer": "0.5"}, ".5")
    key = {"kind": "field", "subtype": "dropdown", "answer": "up arrow"}
    for same in ("up arrow", "Up Arrow", " up  arrow ", "`up arrow`", "[up arrow]", "up arrow."):
        assert is_correct(key, same), same
    assert not is_correct(key, "down arrow") and not is_correct(key, "uparrow")
    where = {"kind": "field", "subtype": "dropdown", "answer": "random position"}
    assert is_correct(where, "_random_") and is_correct(where, "Random Position")
    assert is_correct(
        {"kind": "field", "subtype": "dropdown", "answer": "mouse-pointer"}, "_mouse_"
    )
    text = {"kind": "field", "subtype": "value", "answer": "Hello!"}  # text stays exact
    assert is_correct(text, '"Hello!"') and not is_correct(text, "hello!")


def test_a_rendered_number_field_accepts_its_value_written_as_a_float(rendered):
    """On a scene drawn in the editor: every number field's answer also matches as a float."""
    numbers = [q for _, _, qs in rendered for q in qs if q.kind == "field"
               and q.subtype == "value" and q.answer.lstrip("-").isdigit()]  # fmt: skip
    assert numbers, "no number field in the scenes: the test exercises nothing"
    for q in numbers:
        assert is_correct(q, f"{float(q.answer)}") and not is_correct(q, f"{float(q.answer) + 1}")


@pytest.fixture(scope="module")
def rendered(editor_page):
    out = []
    for index in SCENES:
        scene = make_scene(0, index)
        _png, state = render(editor_page, scene)
        elements = editor_page.bridge.elements_list()
        questions = make_questions(state, index, random.Random(index), per_kind=50)
        out.append((state, elements, questions))
    return out


def test_vm_answers_match_the_drawn_workspace(rendered):
    seen = set()
    for state, elements, questions in rendered:
        for q in questions:
            seen.add((q.kind, q.subtype))
            ev = q.evidence
            if q.kind == "field":  # VM value vs the field's text in the DOM
                assert state.drawn[ev["block"]]["fields"][ev["slot"]] == q.answer
                assert any(e["type"] in ("input", "dropdown") and e["block_id"] == ev["block"]
                           and e["text"] == q.answer for e in elements)  # fmt: skip
            elif q.kind == "connection":  # VM's next vs Blockly's drawn connection and geometry
                a, b = state.drawn[ev["a"]], state.drawn[ev["b"]]
                assert (a["next"] == ev["b"]) == (q.answer == "yes")
                assert (a["root"] == b["root"]) == (q.answer == "yes")
                if q.subtype != "separate":
                    assert abs(a["x"] - b["x"]) < 1
                    overlap = a["y"] + a["h"] - b["y"]  # the tab below a reaches into b
                    assert (overlap > 5.0) == (q.answer == "yes"), (q.question, overlap)
    assert {("field", "value"), ("connection", "attached"), ("connection", "near_miss")} <= seen


def test_workspace_answers_match_the_vm(rendered):
    seen = set()
    for state, elements, questions in rendered:
        vm_texts = {describe(state.vm, i) for i in state.stack_ids()}
        listed = {e["block_id"] for e in elements if e["type"] == "block"}
        for e in elements:  # every drawn block is a VM block with that opcode
            if e["type"] == "block":
                assert state.vm[e["block_id"]]["opcode"] == e["opcode"]
        for q in (q for q in questions if q.kind == "existence"):
            seen.add(q.subtype)
            desc = q.evidence["description"]
            if q.subtype == "visible":
                assert q.evidence["block"] in listed and desc in vm_texts and q.answer == "yes"
            elif q.subtype == "confusable":
                assert desc not in vm_texts and q.answer == "no"
            else:  # in the project, not on screen
                assert q.subtype == "occluded" and q.answer == "no"
                assert desc in vm_texts and q.evidence["block"] not in listed
    assert seen == {"visible", "confusable", "occluded"}


def test_env_episode_scores_answers(editor_page):
    env = gym.make("ScratchWorld-Perception-v0", screens=4)
    try:
        env.unwrapped._page = editor_page
        obs, info = env.reset(seed=1, options={"scene": 3, "question": 0})
        assert env.observation_space.contains(obs) and obs["question"]
        truth = scene_questions(editor_page, 0, 3).questions[0]
        assert info["id"] == truth.id
        _, reward, terminated, truncated, step_info = env.step(truth.answer.upper()
                                                               if truth.kind != "field" else truth.answer)  # fmt: skip
        assert (reward, terminated, truncated) == (1.0, True, False) and step_info["correct"]
        env.reset(options={"scene": 3, "question": 0})
        assert env.step("certainly not this")[1] == 0.0
    finally:
        env.unwrapped._page = None
        env.close()


def test_a_malformed_answer_is_reported_and_the_episode_goes_on(editor_page):
    """Not text, or too long: reward 0, the error in info, the episode not over; the third
    malformed answer truncates it. A text answer then still ends an episode normally."""
    env = gym.make("ScratchWorld-Perception-v0", screens=4)
    try:
        env.unwrapped._page = editor_page
        env.reset(options={"scene": 3, "question": 0})
        _, reward, terminated, truncated, info = env.step(42)
        assert (reward, terminated, truncated) == (0.0, False, False)
        assert (
            info["last_action_error"]
            == "the answer must be text of at most 1000 characters, got int"
        )
        _, _, terminated, truncated, info = env.step("x" * 1001)
        assert (terminated, truncated) == (False, False) and "1001 characters" in info[
            "last_action_error"
        ]
        _, _, terminated, truncated, _ = env.step(None)
        assert (terminated, truncated) == (False, True)
        env.reset(options={"scene": 3, "question": 0})
        _, _, terminated, _, info = env.step("no")
        assert terminated and info["last_action_error"] == ""
    finally:
        env.unwrapped._page = None
        env.close()


@pytest.mark.browser
def test_export_then_eval_and_serve_the_export(tmp_path, capsys):
    parser = argparse.ArgumentParser()
    cli.register(parser.add_subparsers())
    out = tmp_path / "perception"
    args = parser.parse_args(
        ["perception", "export", "--out", str(out), "--screens", "2", "--json"]
    )
    assert args.handler(args) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    data = json.loads((out / "questions.json").read_text())
    assert summary["questions"] == len(data["questions"]) >= 4
    assert all((out / q["image"]).is_file() for q in data["questions"])
    preds = tmp_path / "preds.jsonl"
    rows = [{"id": q["id"], "answer": q["answer"] if i % 2 == 0 else "wrong"}
            for i, q in enumerate(data["questions"])]  # fmt: skip
    preds.write_text("\n".join(json.dumps(r) for r in rows))
    args = parser.parse_args(["perception", "eval", "--dataset", str(out), "--predictions",
                              str(preds), "--json"])  # fmt: skip
    assert args.handler(args) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    n = len(rows)
    assert result["accuracy"] == pytest.approx(((n + 1) // 2) / n)
    env = gym.make("ScratchWorld-Perception-v0", dataset=str(out))
    obs, info = env.reset(options={"index": 1})
    assert obs["screenshot"].shape == (720, 1280, 3) and info["id"] == data["questions"][1]["id"]
    assert env.step(data["questions"][1]["answer"])[1] == 1.0
    env.close()
