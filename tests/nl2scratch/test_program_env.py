"""ScratchWorld-Program-v0: a whole program in, parsed, loaded into the real editor, scored."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest

import scratch_gym  # noqa: F401

PAPER_NL = "When the green flag is clicked, move 10 steps, then say Hello for 2 seconds."
PROGRAM = ["when @greenFlag clicked", "move (10) steps", "say [Hello] for (2) seconds"]


@pytest.fixture(scope="module")
def env():
    env = gym.make("ScratchWorld-Program-v0", attempts=2)
    yield env
    env.close()


@pytest.mark.browser
def test_parse_error_comes_back_with_line_and_column_and_the_episode_goes_on(env):
    env.reset(options={"nl": PAPER_NL, "reference": PROGRAM})
    obs, reward, terminated, truncated, info = env.step(
        "when @greenFlag clicked\nmove (10) steps\nfly to the moon"
    )
    assert not terminated and not truncated and reward == 0.0
    assert "line 3, column 1" in obs["last_error"] and "fly to the moon" in obs["last_error"]
    assert obs["attempts_left"] == 1
    obs, reward, terminated, truncated, info = env.step(PROGRAM)
    assert terminated and info["parsed"] and obs["last_error"] == ""
    assert info["sac_ref"] == 1.0 and info["sac_nl"] == 1.0 and reward == 1.0
    assert info["sac_protocol"] == "paper"  # the published scorer's SAC by default
    # the program is in the editor's VM, read back from its blocks
    assert info["program_in_editor"].splitlines()[:2] == PROGRAM[:2]


def test_sac_protocol_is_checked_at_construction():
    from scratch_gym.envs.program import ProgramEnv

    assert ProgramEnv().sac_protocol.name == "paper"
    assert ProgramEnv(sac_protocol="robust").sac_protocol.name == "robust"
    with pytest.raises(ValueError, match="sac_protocol must be one of"):
        ProgramEnv(sac_protocol="published")


@pytest.mark.browser
def test_attempts_run_out(env):
    env.reset(options={"nl": PAPER_NL})
    env.step("end")
    _, _, terminated, truncated, _ = env.step("end")
    assert truncated and not terminated


@pytest.mark.browser
def test_a_wrong_program_scores_below_one(env):
    env.reset(options={"nl": PAPER_NL, "reference": PROGRAM})
    _, reward, terminated, _, info = env.step(
        ["when this sprite clicked", "turn right (90) degrees", "hide"]
    )
    assert terminated and reward == info["sac_ref"] < 0.5 and info["sac_nl"] < 0.5


@pytest.mark.browser
def test_corpus_examples_are_drawn_by_seed(tmp_path):
    corpus = tmp_path / "corpus.jsonl"
    rows = [
        {"key": "a", "nl": PAPER_NL, "pseudocode": PROGRAM},
        {"key": "b", "nl": "When space key is pressed, hide.", "pseudocode": [
            "when [space v] key pressed", "hide"]},
    ]  # fmt: skip
    corpus.write_text("\n".join(json.dumps(r) for r in rows))
    env = gym.make("ScratchWorld-Program-v0", corpus=str(corpus))
    try:
        keys = [env.reset(seed=s)[1]["key"] for s in range(6)]
        assert keys == [env.reset(seed=s)[1]["key"] for s in range(6)]
        obs, info = env.reset(options={"index": 1})
        assert info["key"] == "b" and obs["description"].startswith("When space")
        _, reward, _, _, info = env.step(rows[1]["pseudocode"])
        assert reward == 1.0
    finally:
        env.close()


@pytest.mark.browser
def test_task_episode_scores_with_the_tasks_unit_tests(env):
    from scratch_gym.tasks import list_tasks

    task = next(t for t in list_tasks() if t.tests and t.golden is not None)
    obs, info = env.reset(options={"task": task.id})
    assert obs["description"] == task.instruction and info["task"] == task.id
    reference = env.unwrapped.episode.reference
    _, reward, terminated, _, info = env.step(reference)
    assert terminated and info["success"] and reward == info["psr"] == 1.0
