"""My Blocks in composite mode: define a custom block, call it and use its inputs, in the editor."""

from __future__ import annotations

import json

from scratch_gym.program import render_scripts
from scratch_gym.program.numbering import number_blocks
from tests.composite.driver import Driver

JUMP_PROGRAM = """\
define jump (h) <twice>
change y by (h)
if <twice> then
    change y by (h)
end

when @greenFlag clicked
jump (25) <(1) = (1)>"""


def _build_jump(d: Driver) -> dict[str, str]:
    d.step(
        "add_block",
        opcode="procedures_definition",
        proccode="jump %s %b",
        argument_names=["h", "twice"],
    )
    ids = {"define": d.program().ids[0]}
    for name, opcode, options in (
        ("change", "motion_changeyby", {}),
        ("if", "control_if", {}),
        ("change2", "motion_changeyby", {}),
        ("h", "argument_reporter_string_number", {"argument": "h"}),
        ("h2", "argument_reporter_string_number", {"argument": "h"}),
        ("twice", "argument_reporter_boolean", {"argument": "twice"}),
        ("flag", "event_whenflagclicked", {}),
        ("call", "procedures_call", {"proccode": "jump %s %b"}),
        ("equals", "operator_equals", {}),
    ):
        ids[name] = d.add(opcode, **options)
    d.connect(ids["change"], ids["define"], "stack_after")
    d.connect(ids["h"], ids["change"], "value_into", "DY")
    d.connect(ids["if"], ids["change"], "stack_after")
    d.connect(ids["twice"], ids["if"], "value_into", "CONDITION")
    d.connect(ids["change2"], ids["if"], "statement_into")
    d.connect(ids["h2"], ids["change2"], "value_into")
    d.connect(ids["call"], ids["flag"], "stack_after")
    d.set(ids["call"], "h", 25)  # a call's inputs by the names its definition gives them
    d.connect(ids["equals"], ids["call"], "value_into", "twice")
    d.set(ids["equals"], "OPERAND1", 1)
    d.set(ids["equals"], "OPERAND2", 1)
    return ids


def test_define_call_and_run_a_custom_block(driver: Driver):
    d = driver
    ids = _build_jump(d)
    blocks = d.vm_blocks()
    assert render_scripts(blocks) == JUMP_PROGRAM
    proto = next(b for b in blocks.values() if b["opcode"] == "procedures_prototype")
    assert proto["parent"] == ids["define"]
    assert json.loads(proto["mutation"]["argumentnames"]) == ["h", "twice"]
    assert json.loads(proto["mutation"]["argumentdefaults"]) == ["", "false"]
    call = blocks[ids["call"]]
    assert call["mutation"]["argumentids"] == proto["mutation"]["argumentids"]
    d.step("stop_project")
    assert d.obs["pseudocode"] == number_blocks(blocks).text()
    assert "procedures_call: h = 25 (text); twice = block" in d.obs["fields"]
    d.step("run_project")
    for _ in range(60):
        if d.page.summary()["running_threads"] == 0:
            break
        d.page.settle()
    sprite = next(t for t in d.page.project_json()["targets"] if t["name"] == "Sprite1")
    assert sprite["y"] == 50


def test_custom_block_errors_leave_the_vm_unchanged(driver: Driver):
    d = driver
    ids = _build_jump(d)
    before = json.dumps(d.page.project_json()["targets"])
    for api, args, expected in (
        (
            "add_block",
            {
                "opcode": "procedures_definition",
                "proccode": "jump %s %b",
                "argument_names": ["a", "b"],
            },
            "already defined",
        ),
        (
            "add_block",
            {"opcode": "procedures_definition", "proccode": "%s", "argument_names": ["a"]},
            "needs a label word",
        ),
        (
            "add_block",
            {
                "opcode": "procedures_definition",
                "proccode": "go %s %s",
                "argument_names": ["a", "a"],
            },
            "must be different",
        ),
        ("delete_block", {"index": d.index(ids["define"])}, "still call"),
        ("set_block_field", {"index": d.index(ids["call"]), "field": "y", "value": 1}, "inputs: h"),
        (
            "connect_blocks",
            {
                "source": d.index(ids["flag"]),
                "target": d.index(ids["define"]),
                "placement": "stack_before",
            },
            "hat block",
        ),
    ):
        error = d.step(api, ok=False, **args)
        assert expected in error, error
    assert json.dumps(d.page.project_json()["targets"]) == before


def test_numbering_skips_the_prototype():
    blocks = {
        "d": {
            "id": "d",
            "opcode": "procedures_definition",
            "topLevel": True,
            "parent": None,
            "next": None,
            "x": 0,
            "y": 0,
            "inputs": {"custom_block": {"name": "custom_block", "block": "p", "shadow": None}},
            "fields": {},
        },
        "p": {
            "id": "p",
            "opcode": "procedures_prototype",
            "topLevel": False,
            "shadow": False,
            "parent": "d",
            "next": None,
            "inputs": {"a1": {"name": "a1", "block": "r", "shadow": None}},
            "fields": {},
            "mutation": {
                "proccode": "go %s",
                "argumentids": '["a1"]',
                "argumentnames": '["n"]',
                "argumentdefaults": '[""]',
                "warp": "false",
            },
        },
        "r": {
            "id": "r",
            "opcode": "argument_reporter_string_number",
            "topLevel": False,
            "shadow": False,
            "parent": "p",
            "next": None,
            "inputs": {},
            "fields": {"VALUE": {"name": "VALUE", "value": "n"}},
        },
    }
    program = number_blocks(blocks)
    assert program.ids == ["d"]
    assert program.text() == "1  define go (n)"
