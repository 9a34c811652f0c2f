"""Bad composite actions: a specific error, the VM unchanged, the episode going on."""

from __future__ import annotations

import json

import pytest

from tests.composite.driver import Driver


def _vm_state(d: Driver) -> str:
    """Blocks and variables of every target, as the VM serialises them."""
    project = d.page.project_json()
    return json.dumps(
        [(t["name"], t["blocks"], t["variables"], t["lists"]) for t in project["targets"]]
    )


@pytest.fixture(scope="module")
def scene(composite_env):
    """Sprite1: `when flag clicked / move (10) steps`, a lone `if`, a `(x position)`, a `stop all`."""
    composite_env.reset()
    d = Driver(composite_env)
    d.step("add_variable", name="score")
    hat = d.add("event_whenflagclicked")
    move = d.add("motion_movesteps")
    d.connect(move, hat, "stack_after")
    blocks = {"hat": hat, "move": move}
    for name, opcode in (
        ("if", "control_if"),
        ("xpos", "motion_xposition"),
        ("stop", "control_stop"),
    ):
        blocks[name] = d.add(opcode)
    blocks["goto"] = d.add("motion_goto")
    return d, blocks


BAD = [
    ("not json", "{api: add_block", "not valid JSON"),
    ("not an object", "[1, 2]", "must be a JSON object"),
    ("unknown api", {"api": "add_blocks", "args": {}}, "did you mean add_block"),
    ("unknown key", {"api": "run_project", "args": {}, "x": 1}, "allowed: api, args"),
    ("unknown arg", {"api": "delete_block", "args": {"block": 1}}, "allowed: index"),
    ("missing arg", {"api": "select_sprite", "args": {}}, "missing argument `name`"),
    ("bad index", {"api": "delete_block", "args": {"index": "one"}}, "must be a block index"),
    ("unknown opcode", {"api": "add_block", "args": {"opcode": "motion_move"}}, "unknown opcode"),
    (
        "call without proccode",
        {"api": "add_block", "args": {"opcode": "procedures_call"}},
        "needs the `proccode` option",
    ),
    (
        "call of an undefined block",
        {"api": "add_block", "args": {"opcode": "procedures_call", "proccode": "jump %s"}},
        "no custom block 'jump %s' is defined",
    ),
    (
        "definition with too few names",
        {
            "api": "add_block",
            "args": {"opcode": "procedures_definition", "proccode": "jump %s %b"},
        },
        "has 2 input(s) but argument_names lists 0",
    ),
    (
        "definition with an unknown placeholder",
        {
            "api": "add_block",
            "args": {
                "opcode": "procedures_definition",
                "proccode": "go %n",
                "argument_names": ["a"],
            },
        },
        "not %n",
    ),
    (
        "argument of no custom block",
        {"api": "add_block", "args": {"opcode": "argument_reporter_boolean", "argument": "a"}},
        "no boolean input named 'a'",
    ),
    (
        "proccode on a plain block",
        {"api": "add_block", "args": {"opcode": "motion_movesteps", "proccode": "x"}},
        "takes no `proccode` option",
    ),
    (
        "prototype alone",
        {"api": "add_block", "args": {"opcode": "procedures_prototype"}},
        "add procedures_definition",
    ),
    (
        "bad placement",
        {"api": "connect_blocks", "args": {"source": 1, "target": 2, "placement": "below"}},
        "must be one of stack_before, stack_after",
    ),
    ("index out of range", {"api": "delete_block", "args": {"index": 99}}, "has blocks 1..6"),
    ("unknown sprite", {"api": "select_sprite", "args": {"name": "Cat"}}, "sprites: Sprite1"),
    ("duplicate variable", {"api": "add_variable", "args": {"name": "score"}}, "already exists"),
    (
        "stage-only block",
        {"api": "add_block", "args": {"opcode": "event_whenstageclicked"}},
        "not available for the sprite",
    ),
    (
        "unknown variable",
        {"api": "add_block", "args": {"opcode": "data_setvariableto", "variable": "lives"}},
        "variables: score",
    ),
    (
        "option the block lacks",
        {"api": "add_block", "args": {"opcode": "motion_movesteps", "list": "x"}},
        "takes no `list` option",
    ),
]
# Steps that need the scene's indices: (name, api, args by block name, expected error part).
BAD_EDITS = [
    (
        "stack block into a number slot",
        "connect_blocks",
        {"source": "stop", "target": "move", "placement": "value_into", "input": "STEPS"},
        "the source is a stack block; only reporters and booleans go into an input",
    ),
    (
        "reporter into a boolean slot",
        "connect_blocks",
        {"source": "xpos", "target": "if", "placement": "value_into", "input": "CONDITION"},
        "Scratch refuses this block in that place",
    ),
    (
        "hat below a block",
        "connect_blocks",
        {"source": "hat", "target": "stop", "placement": "stack_after"},
        "the source is a hat block",
    ),
    (
        "block below a cap",
        "connect_blocks",
        {"source": "if", "target": "stop", "placement": "stack_after"},
        "nothing can go below the target",
    ),
    (
        "unknown input",
        "connect_blocks",
        {"source": "xpos", "target": "move", "placement": "value_into", "input": "DEGREES"},
        "value inputs are STEPS",
    ),
    (
        "not a C-block",
        "connect_blocks",
        {"source": "move", "target": "stop", "placement": "statement_into"},
        "not a C-block",
    ),
    (
        "wrap with a stack block",
        "connect_blocks",
        {"source": "move", "target": "if", "placement": "wrap"},
        "not a C-block",
    ),
    (
        "into itself",
        "connect_blocks",
        {"source": "hat", "target": "move", "placement": "stack_before"},
        "inside or below the source",
    ),
    ("detach a script's top", "detach_blocks", {"index": "hat"}, "already the top of a script"),
    (
        "unknown field",
        "set_block_field",
        {"index": "move", "field": "DEGREES", "value": 1},
        "its fields: STEPS",
    ),
    (
        "unknown menu value",
        "set_block_field",
        {"index": "goto", "field": "TO", "value": "moon"},
        "choices: random position (_random_), mouse-pointer (_mouse_)",
    ),
    (
        "text in a number field",
        "set_block_field",
        {"index": "move", "field": "STEPS", "value": "ten"},
        "not a valid value for STEPS",
    ),
]


@pytest.mark.parametrize("action,expected", [(a, e) for _, a, e in BAD], ids=[n for n, _, _ in BAD])
def test_bad_action_gives_its_error_and_changes_nothing(scene, action, expected):
    d, _ = scene
    before = _vm_state(d)
    obs, reward, terminated, truncated, info = d.env.step(action)
    assert expected in obs["last_action_error"]
    assert info["last_action_error"] == obs["last_action_error"]
    assert obs["last_action_result"] == ""
    assert not terminated
    assert _vm_state(d) == before


@pytest.mark.parametrize(
    "api,args,expected", [e[1:] for e in BAD_EDITS], ids=[e[0] for e in BAD_EDITS]
)
def test_bad_edit_gives_its_error_and_changes_nothing(scene, api, args, expected):
    d, blocks = scene
    args = {
        k: d.index(blocks[v]) if k in ("source", "target", "index") else v for k, v in args.items()
    }
    before = _vm_state(d)
    error = d.step(api, ok=False, **args)
    assert expected in error
    assert _vm_state(d) == before
    assert d.step("set_block_field", index=d.index(blocks["move"]), field="STEPS", value=10)
