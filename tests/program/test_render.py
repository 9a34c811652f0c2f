"""Rendering blocks, in sb3 and VM form, in both dialects (no browser)."""

from __future__ import annotations

from scratch_gym.program import parse_scripts, render_scripts
from scratch_gym.program.normalize import normalize_line, normalize_program
from scratch_gym.program.sb3blocks import PRIMITIVE_OPCODES, to_sb3

BY_CODE = {code: (opcode, field) for opcode, (code, field) in PRIMITIVE_OPCODES.items()}


def _vm_form(sb3: dict) -> dict:
    """The VM's in-memory form of sb3 blocks (as vm.blocks returns it), built by hand."""
    out = {}
    for bid, b in sb3.items():
        inputs = {}
        for name, inp in b["inputs"].items():
            refs = []
            for ref in inp[1:]:
                if isinstance(ref, list):
                    pid = f"{bid}-{name}-{len(refs)}"
                    opcode, field = BY_CODE[ref[0]]
                    out[pid] = {
                        "id": pid, "opcode": opcode, "inputs": {}, "next": None, "parent": bid,
                        "fields": {field: {"name": field, "value": ref[1]}}, "shadow": True,
                        "topLevel": False,
                    }  # fmt: skip
                    ref = pid
                refs.append(ref)
            block = refs[0]
            shadow = refs[0] if inp[0] == 1 else (refs[1] if inp[0] == 3 else None)
            inputs[name] = {"name": name, "block": block, "shadow": shadow}
        fields = {n: {"name": n, "value": f[0]} for n, f in b["fields"].items()}
        out[bid] = {**b, "id": bid, "inputs": inputs, "fields": fields}
    return out


def test_vm_form_renders_like_sb3():
    text = "when @greenFlag clicked\nrepeat (3)\n    say (join [a] ((1) + (2)))\nend"
    blocks = parse_scripts(text).blocks
    vm = _vm_form(blocks)
    assert to_sb3(vm)["b1"]["next"] == "b2"
    assert render_scripts(vm) == render_scripts(blocks) == text


def test_scripts_are_ordered_top_to_bottom():
    blocks = parse_scripts("when @greenFlag clicked\nshow\n\nwhen this sprite clicked\nhide").blocks
    first, second = (b for b in blocks.values() if b["topLevel"])
    first["y"], second["y"] = 500, 0
    assert render_scripts(blocks).startswith("when this sprite clicked\nhide\n\n")


def test_dialects_differ_in_slots():
    text = (
        "when [space v] key pressed\nswitch costume to (costume2 v)\n"
        "if <touching color [#ff0000]?> then\n    say [hi]\n    point in direction (90)\n"
        "    go to (mouse-pointer v)\n    start sound (pop v)\nend"
    )
    blocks = parse_scripts(text).blocks
    assert render_scripts(blocks) == text
    assert render_scripts(blocks, dialect="nl2scratch").splitlines() == [
        "when (space v) key pressed",
        "switch costume to [costume2]",
        "if <touching color (-65536)?> then",
        "    say (hi)",
        "    point in direction (90 v)",
        "    go to (_mouse_ v)",
        "    play sound (pop v)",
        "end",
    ]


def test_normalisation_of_whitespace_and_menu_spelling():
    assert normalize_line("  go to ( _mouse_ v)  ") == "go to (mouse-pointer v)"
    assert normalize_program(["", "touching (_edge_ v)?", "  "]) == ["touching (edge v)?"]


def test_render_targets_of_a_built_project():
    from scratch_gym.program import ProjectBuilder, render_targets

    project = ProjectBuilder().sprite("Sprite1", scripts="when @greenFlag clicked\nshow").build()
    assert render_targets(project) == {"Stage": "", "Sprite1": "when @greenFlag clicked\nshow"}
