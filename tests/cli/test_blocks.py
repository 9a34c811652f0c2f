"""The block reference (``scratch-gym blocks``, ``docs/blocks.md``, the LLM prompt option) is the
block catalogue, and what it says about a block is what composite mode does with it in the real
editor."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest

import scratch_gym  # noqa: F401  (registers the ids)
from scratch_gym.actions.block_reference import reference_json, reference_prompt
from scratch_gym.actions.composite import addable
from scratch_gym.agents.factory import make_agent
from scratch_gym.cli import main
from scratch_gym.program import catalogue
from tests.agents.chat_server import ChatServer


def _json_out(capsys) -> dict:
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def test_json_lists_every_addable_block_with_its_catalogue_fields_and_inputs(capsys):
    assert main(["blocks", "--json"]) == 0
    ref = _json_out(capsys)
    assert ref["count"] == len(ref["blocks"]) == sum(1 for b in catalogue if addable(b))
    assert ref["categories"] == catalogue.categories
    for entry in ref["blocks"]:
        spec = catalogue.block(entry["opcode"])
        assert entry["category"] == spec.category and entry["scratchblocks"] == spec.scratchblocks
        names = [a["name"] for a in entry["fields"] + entry["inputs"]]
        assert sorted(names) == sorted(a.name for a in spec.args), entry["opcode"]
        assert entry["statements"] == list(spec.statements)
    by_opcode = {e["opcode"]: e for e in ref["blocks"]}
    assert "procedures_prototype" not in by_opcode  # part of a define block, never added alone
    assert [f["name"] for f in by_opcode["event_whenkeypressed"]["fields"]] == ["KEY_OPTION"]
    assert by_opcode["procedures_definition"]["add_block_options"] == [
        "proccode",
        "argument_names",
        "warp",
    ]
    assert by_opcode["data_addtolist"]["add_block_options"] == ["list"]
    stop = by_opcode["control_stop"]["fields"][0]["choices"]
    assert [c["value"] for c in stop] == ["all", "this script", "other scripts in sprite"]
    clone = by_opcode["control_create_clone_of"]["inputs"][0]["choices"]
    assert clone == [{"display": "myself", "value": "_myself_", "only_for": "sprite"}]


def test_one_category(capsys):
    assert main(["blocks", "--category", "pen", "--json"]) == 0
    ref = _json_out(capsys)
    assert ref["categories"] == ["pen"] and {b["category"] for b in ref["blocks"]} == {"pen"}
    assert main(["blocks", "--category", "control"]) == 0
    out = capsys.readouterr().out
    assert "control_if_else" in out and "SUBSTACK2 script" in out and "motion_movesteps" not in out


def test_an_unknown_category_is_one_error_line_and_exit_2(capsys):
    assert main(["blocks", "--category", "moton"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("error: unknown category 'moton' (allowed: motion, looks, sound, ")
    assert "did you mean 'motion'?" in err[0]


def _menu_choice(entry: dict) -> tuple[str, str] | None:
    """A field or input of ``entry`` with fixed choices, and the last choice it lists for a
    sprite that is not the default."""
    for arg in entry["fields"] + entry["inputs"]:
        choices = [
            c["display"]
            for c in arg.get("choices", [])
            if c["value"] != arg["default"] and c.get("only_for", "sprite") == "sprite"
        ]
        if choices and not arg.get("dynamic"):
            return arg["name"], choices[-1]
    return None


def _literal(entry: dict) -> tuple[str, str] | None:
    """A number or text input of ``entry``, and 42 for it."""
    arg = next((a for a in entry["inputs"] if a["kind"] in ("number", "text")), None)
    return (arg["name"], "42") if arg else None


def _pick(blocks: list[dict], category: str) -> tuple[dict, tuple[str, str]]:
    """The category's first sprite block with a menu to set, else one with a literal input."""
    ours = [e for e in blocks if e["category"] == category and "sprite" in e["targets"]]
    for settable in (_menu_choice, _literal):
        for entry in ours:
            if settable(entry):
                return entry, settable(entry)
    raise AssertionError(f"nothing to set in {category}")


@pytest.mark.browser
def test_what_the_reference_says_is_what_the_editor_does():
    """Per category, a block with a settable field or input: add it by the reference's opcode,
    set that field by the reference's name to a value it lists; the editor shows it."""
    ref = reference_json()
    env = gym.make("ScratchWorld-Composite-v0")
    tried = []
    try:
        for category in ref["categories"]:
            if category == "myblocks":
                continue  # needs a definition first (tests/composite/test_my_blocks.py)
            entry, (name, value) = _pick(ref["blocks"], category)
            obs, _ = env.reset()
            if "variable" in entry["add_block_options"]:
                env.step({"api": "add_variable", "args": {"name": "score"}})
            if "list" in entry["add_block_options"]:
                env.step({"api": "add_list", "args": {"name": "things"}})
            obs, *_ = env.step({"api": "add_block", "args": {"opcode": entry["opcode"]}})
            assert obs["last_action_error"] == "", (entry["opcode"], obs["last_action_error"])
            index = int(obs["last_action_result"].split("added block ")[1].split(":")[0])
            obs, *_ = env.step(
                {"api": "set_block_field", "args": {"index": index, "field": name, "value": value}}
            )
            assert obs["last_action_error"] == "", (entry["opcode"], name, obs["last_action_error"])
            assert f"{name} = {value}" in obs["fields"], (entry["opcode"], obs["fields"])
            tried.append(entry["opcode"])
        # a choice only sprites offer: a sprite takes it, the stage does not
        clone = next(e for e in ref["blocks"] if e["opcode"] == "control_create_clone_of")
        arg = clone["inputs"][0]
        sprite_only = next(c["display"] for c in arg["choices"] if c["only_for"] == "sprite")
        set_it = {"index": 1, "field": arg["name"], "value": sprite_only}
        for select, accepted in (("select_sprite", True), ("select_stage", False)):
            env.reset()
            env.step({"api": select, "args": {"name": "Sprite1"} if accepted else {}})
            env.step({"api": "add_block", "args": {"opcode": "control_create_clone_of"}})
            obs, *_ = env.step({"api": "set_block_field", "args": set_it})
            error = obs["last_action_error"]
            assert error == "" if accepted else "is not a choice of CLONE_OPTION" in error, error
    finally:
        env.close()
    assert len(tried) == len(ref["categories"]) - 1


@pytest.mark.browser
def test_the_llm_prompt_carries_the_reference_on_request():
    """The option reaches the model: the system message the agent sends holds the reference."""
    reply = 'Analysis: add a block.\n{"api": "add_block", "args": {"opcode": "motion_movesteps"}}'
    env = gym.make("ScratchWorld-Composite-v0")
    try:
        with ChatServer(lambda body: (200, reply)) as server:
            for with_reference in (True, False):
                agent = make_agent(
                    "llm",
                    "composite",
                    base_url=server.base_url,
                    model="scripted",
                    block_reference=with_reference,
                )
                obs, info = env.reset()
                agent.reset(None)
                obs, *_ = env.step(agent.act(obs, info))
                assert obs["last_action_result"].startswith("added block 1: move (10) steps")
                system = server.requests[-1]["messages"][0]["content"]
                assert (reference_prompt() in system) is with_reference
                assert ("control_if_else: if <> then; inputs CONDITION, SUBSTACK, SUBSTACK2"
                        in system) is with_reference  # fmt: skip
    finally:
        env.close()
    with pytest.raises(ValueError, match="block_reference applies to composite mode only"):
        make_agent("llm", "primitive", base_url="http://127.0.0.1:9/v1", model="m",
                   block_reference=True)  # fmt: skip
