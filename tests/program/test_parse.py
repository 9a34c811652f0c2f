"""scratchblocks text -> sb3 blocks, in both dialects (no browser)."""

from __future__ import annotations

import pytest

from scratch_gym.program import ScratchblocksError, parse_scripts, render_scripts


def _by_opcode(blocks: dict, opcode: str) -> list[dict]:
    return [b for b in blocks.values() if b["opcode"] == opcode]


def test_inputs_are_serialised_as_sb3():
    r = parse_scripts("when @greenFlag clicked\nmove (10) steps\nsay [Hello!] for (2) seconds")
    hat = _by_opcode(r.blocks, "event_whenflagclicked")[0]
    assert hat["topLevel"] and hat["parent"] is None
    move = r.blocks[hat["next"]]
    assert move["opcode"] == "motion_movesteps"
    assert move["inputs"]["STEPS"] == [1, [4, "10"]]
    say = r.blocks[move["next"]]
    assert say["inputs"]["MESSAGE"] == [1, [10, "Hello!"]]
    assert say["parent"] == hat["next"] and r.scripts == [r.blocks[say["parent"]]["parent"]]


def test_menus_become_shadow_blocks_and_nested_reporters_sit_over_shadows():
    r = parse_scripts("go to (mouse-pointer v)\nmove ((x position) + (1)) steps")
    goto = _by_opcode(r.blocks, "motion_goto")[0]
    kind, shadow_id = goto["inputs"]["TO"]
    assert kind == 1 and r.blocks[shadow_id]["fields"]["TO"] == ["_mouse_", None]
    assert r.blocks[shadow_id]["shadow"] is True
    move = _by_opcode(r.blocks, "motion_movesteps")[0]
    kind, add_id, shadow = move["inputs"]["STEPS"]
    assert kind == 3 and shadow == [4, "10"]
    assert r.blocks[add_id]["opcode"] == "operator_add"
    assert r.blocks[r.blocks[add_id]["inputs"]["NUM1"][1]]["opcode"] == "motion_xposition"


def test_c_blocks_with_else_and_variables_lists_broadcasts_are_created():
    text = """when this sprite clicked
if <(score) > (10)> then
    add (score) to [best v]
    broadcast (won v)
else
    change [score v] by (1)
end"""
    r = parse_scripts(text)
    if_else = _by_opcode(r.blocks, "control_if_else")[0]
    assert set(if_else["inputs"]) == {"CONDITION", "SUBSTACK", "SUBSTACK2"}
    assert r.created_variables == ["score"] and r.created_lists == ["best"]
    assert r.created_broadcasts == ["won"]
    gt = _by_opcode(r.blocks, "operator_gt")[0]
    assert gt["inputs"]["OPERAND1"] == [3, [12, "score", r.variables["score"]], [10, ""]]
    broadcast = _by_opcode(r.blocks, "event_broadcast")[0]
    assert broadcast["inputs"]["BROADCAST_INPUT"] == [1, [11, "won", r.broadcasts["won"]]]
    target: dict = {"variables": {}, "lists": {}}
    stage: dict = {"broadcasts": {}}
    r.apply_to(target, stage)
    assert list(target["variables"].values()) == [["score", 0]]
    assert list(stage["broadcasts"].values()) == ["won"]


def test_custom_blocks_define_and_call():
    text = """when @greenFlag clicked
jump (10) <mouse down?>

define jump (height) <fast>
if <fast> then
    change y by (height)
end"""
    r = parse_scripts(text)
    proto = _by_opcode(r.blocks, "procedures_prototype")[0]
    assert proto["mutation"]["proccode"] == "jump %s %b"
    assert proto["mutation"]["argumentnames"] == '["height", "fast"]'
    call = _by_opcode(r.blocks, "procedures_call")[0]
    assert call["mutation"]["argumentids"] == proto["mutation"]["argumentids"]
    assert _by_opcode(r.blocks, "argument_reporter_boolean")[1]["shadow"] is False
    change = _by_opcode(r.blocks, "motion_changeyby")[0]
    arg = r.blocks[change["inputs"]["DY"][1]]
    assert arg["opcode"] == "argument_reporter_string_number"
    assert r.created_variables == []


def test_define_argument_wins_over_a_reporter_of_the_same_name():
    text = "define star (size)\nset size to (size) %\nsay (size)\n\nwhen @greenFlag clicked\nsay (size)"
    r = parse_scripts(text)
    args = _by_opcode(r.blocks, "argument_reporter_string_number")
    assert [a["fields"]["VALUE"][0] for a in args if not a["shadow"]] == ["size", "size"]
    # outside the define, (size) is still the Looks reporter
    assert len(_by_opcode(r.blocks, "looks_size")) == 1


def test_nl2scratch_dialect_spellings():
    text = """when (space v) key pressed
switch costume to [costume1]
if <<touching color (-16777216)?> and <(-65536) is touching (-16711936)?>> then
    say (Hello there)
    set [x v] to ((abs) of (x))
    play sound (pop v)
    say (join (a) and (b))
end
when backdrop switches to [night]
point in direction ((x) + (90) v)"""
    r = parse_scripts(text, dialect="nl2scratch")
    ops = {b["opcode"] for b in r.blocks.values()}
    assert {"event_whenkeypressed", "looks_switchcostumeto", "sensing_touchingcolor"} <= ops
    assert {"sensing_coloristouchingcolor", "operator_mathop", "sound_play"} <= ops
    assert {"operator_join", "event_whenbackdropswitchesto", "operator_add"} <= ops
    touching = _by_opcode(r.blocks, "sensing_touchingcolor")[0]
    assert touching["inputs"]["COLOR"] == [1, [9, "#000000"]]
    say = _by_opcode(r.blocks, "looks_say")[0]
    assert say["inputs"]["MESSAGE"] == [1, [10, "Hello there"]]
    assert _by_opcode(r.blocks, "looks_costume")[0]["fields"]["COSTUME"] == ["costume1", None]
    assert render_scripts(r.blocks, dialect="nl2scratch").splitlines()[:2] == text.splitlines()[:2]


def test_variable_or_literal_rule():
    text = "say (Hello there)\nmove (speed) steps\nsay (score)\nset [score v] to (0)"
    std = parse_scripts(text)
    assert sorted(std.created_variables) == ["Hello there", "score", "speed"]
    nl = parse_scripts(text, dialect="nl2scratch")
    # declared/set names are variables; unknown names are text, except in number slots
    assert sorted(nl.created_variables) == ["score", "speed"]
    say = _by_opcode(nl.blocks, "looks_say")[0]
    assert say["inputs"]["MESSAGE"] == [1, [10, "Hello there"]]
    known = parse_scripts("say (Hello there)", dialect="nl2scratch", variables=["Hello there"])
    assert _by_opcode(known.blocks, "looks_say")[0]["inputs"]["MESSAGE"][0] == 3
    assert known.created_variables == []


def test_project_target_supplies_names():
    target = {"variables": {"v1": ["lives", 3]}, "lists": {"l1": ["inventory", []]}}
    r = parse_scripts("say (lives)\nsay (inventory)", target=target)
    assert r.created_variables == [] and r.created_lists == []
    assert r.variables == {"lives": "v1"} and r.lists == {"inventory": "l1"}


def test_blocks_named_like_variables_stay_blocks_and_case_matters():
    r = parse_scripts("say (timer)\nsay (Timer)\nsay (x position :: variables)")
    assert _by_opcode(r.blocks, "sensing_timer")
    assert sorted(r.created_variables) == ["Timer", "x position"]
    assert "(x position :: variables)" in render_scripts(r.blocks)


def test_disambiguation_by_arguments():
    r = parse_scripts(
        "say (length of [apple])\nsay (length of [things v])\nsay ([sqrt v] of (9))\n"
        "say ([x position v] of (Sprite2 v))\nset [pitch v] effect to (10)\nset [ghost v] effect to (10)"
    )
    ops = [b["opcode"] for b in r.blocks.values() if not b["shadow"]]
    assert ops == [
        "looks_say", "operator_length", "looks_say", "data_lengthoflist", "looks_say",
        "operator_mathop", "looks_say", "sensing_of", "sound_seteffectto", "looks_seteffectto",
    ]  # fmt: skip


@pytest.mark.parametrize("dialect", ["standard", "nl2scratch"])
def test_both_dialects_render_what_they_parse(all_blocks_sprite: str, dialect: str):
    blocks = parse_scripts(all_blocks_sprite).blocks
    text = render_scripts(blocks, dialect=dialect)
    again = render_scripts(parse_scripts(text, dialect=dialect).blocks)
    assert again == render_scripts(blocks)


def test_invalid_dialect():
    with pytest.raises(ValueError):
        parse_scripts("show", dialect="klingon")
    with pytest.raises(ScratchblocksError):
        parse_scripts("touching color [red]?")


def test_ids_avoid_the_targets_blocks():
    first = parse_scripts("show")
    target = {"blocks": dict(first.blocks)}
    second = parse_scripts("hide", target=target)
    assert not set(first.blocks) & set(second.blocks)


def test_run_without_screen_refresh_round_trips():
    text = "define spin (n) :: run without screen refresh\nturn right (n) degrees"
    r = parse_scripts(text)
    proto = _by_opcode(r.blocks, "procedures_prototype")[0]
    assert proto["mutation"]["warp"] == "true"
    assert render_scripts(r.blocks) == text
