"""The block catalogue read from the pinned editor."""

from __future__ import annotations

from scratch_gym.program import catalogue
from scratch_gym.program.blockdefs import STATEMENT_SHAPES, VALUE_SHAPES, parse_pattern

CATEGORIES = {
    "motion", "looks", "sound", "events", "control", "sensing", "operators", "variables",
    "myblocks", "pen",
}  # fmt: skip


def test_every_category_is_there():
    assert set(catalogue.categories) == CATEGORIES
    assert catalogue() is catalogue
    assert len(catalogue) > 130


def test_blocks_have_shapes_and_patterns_that_fit_their_arguments():
    for spec in catalogue:
        assert spec.shape in STATEMENT_SHAPES | VALUE_SHAPES | {"prototype"}, spec.opcode
        if spec.source == "structural":  # My Blocks and variables: text from the program
            continue
        for text in spec.all_patterns:
            slots = sum(p is None for p in text.parts)
            assert slots == len(spec.args), (spec.opcode, text.text)


def test_known_blocks_read_from_the_editor():
    move = catalogue.block("motion_movesteps")
    assert (move.shape, move.scratchblocks) == ("stack", "move (10) steps")
    assert move.args[0].kind == "number" and move.args[0].shadow == "math_number"
    assert catalogue.block("control_if_else").shape == "c2"
    assert catalogue.block("control_forever").shape == "c1"
    assert catalogue.block("control_delete_this_clone").shape == "cap"
    assert catalogue.block("event_whenflagclicked").scratchblocks == "when @greenFlag clicked"
    assert catalogue.block("sensing_touchingobject").shape == "boolean"
    goto = catalogue.block("motion_goto").args[0]
    assert goto.kind == "menu" and goto.shadow == "motion_goto_menu" and goto.dynamic == "sprite"
    assert ("random position", "_random_") in goto.options
    effect = catalogue.block("looks_seteffectto").arg("EFFECT")
    assert effect.value_of("ghost") == "GHOST" and effect.display_of("COLOR") == "color"
    assert catalogue.block("pen_setPenColorParamTo").scratchblocks == "set pen (color v) to (50)"
    assert catalogue.block("event_whenstageclicked").targets == ("stage",)
    assert catalogue.block("data_setvariableto").args[0].kind == "variable"


def test_pattern_keys_ignore_slot_contents():
    assert parse_pattern("touching (mouse-pointer v)?").key == "touching _ ?"
    assert parse_pattern("go to x: (0) y: (0)").key == "go to x: _ y: _"


def test_catalogue_file_matches_the_editor(page):
    """catalogue.json is what the catalogue builder reads from the pinned editor now."""
    import json

    from scratch_gym.editor.catalogue_builder import build, extract
    from scratch_gym.program.blockdefs import CATALOGUE_PATH

    fresh = build(extract(page))
    assert fresh == json.loads(CATALOGUE_PATH.read_text(encoding="utf-8")), (
        "catalogue.json is stale: run python -m scratch_gym.editor.catalogue_builder"
    )
