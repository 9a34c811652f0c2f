"""Reply parsing, coordinate conventions and generated prompts (no browser)."""

from __future__ import annotations

import pytest

from scratch_gym.actions.primitive import ACTION_NAMES
from scratch_gym.agents.coords import Coordinates, smart_resize
from scratch_gym.agents.parsing import ReplyParseError, parse_reply
from scratch_gym.agents.prompts import system_prompt


def test_reply_with_analysis_and_fenced_json():
    reply = parse_reply(
        'Analysis: drag {the} block.\n```json\n{"action_type": "drag", "start": [1, 2], '
        '"end": {"x": 3}}\n```\n'
    )
    assert reply.analysis == "drag {the} block."
    assert reply.action == {"action_type": "drag", "start": [1, 2], "end": {"x": 3}}


def test_last_object_wins_and_bare_json_works():
    assert parse_reply('{"a": 1} then {"api": "done", "args": {}}').action["api"] == "done"


@pytest.mark.parametrize("text", ["", "Analysis: I would click.", "```json\n{oops}\n```"])
def test_unparseable_replies_raise_a_message(text):
    with pytest.raises(ReplyParseError, match="JSON object|empty"):
        parse_reply(text)


def test_coordinate_conventions_round_trip():
    assert Coordinates("pixels").to_screen(640, 360) == (640, 360)
    assert Coordinates("norm1000").to_screen(500, 500) == (640, 360)
    assert smart_resize(720, 1280) == (728, 1288)
    sr = Coordinates("smart_resize")
    assert sr.image_size == (1288, 728)
    x, y = sr.to_screen(*sr.to_model(100.0, 700.0))
    assert abs(x - 100) < 1e-9 and abs(y - 700) < 1e-9


def test_prompts_are_generated_from_the_catalogues():
    primitive = system_prompt("primitive", Coordinates("norm1000"))
    assert all(f"`{name}`" in primitive for name in ACTION_NAMES)
    assert "0-1000" in primitive and "Analysis:" in primitive
    single = system_prompt("single_drag")
    assert "`drag`" in single and "`click`" not in single
    from scratch_gym.actions.composite_catalogue import COMPOSITE_APIS

    composite = system_prompt("composite")
    assert all(f"- {api.name} {{" in composite for api in COMPOSITE_APIS)
    assert "Analysis:" in composite and "action_type" not in composite
