"""The composite action catalogue: parsing, the prompt and the README table (no browser)."""

from __future__ import annotations

import pytest

from scratch_gym.actions.composite import CompositeActionModel
from scratch_gym.actions.composite_catalogue import (
    COMPOSITE_APIS,
    composite_actions_markdown,
    composite_prompt,
    parse_action,
)
from scratch_gym.actions.errors import ActionError


def test_text_and_dict_actions_parse_alike():
    text = '{"api": "connect_blocks", "args": {"source": "3", "target": 2.0, "placement": "wrap"}}'
    parsed = parse_action(text)
    assert parsed.api == "connect_blocks"
    assert parsed.args == {"source": 3, "target": 2, "placement": "wrap"}
    assert parse_action(parsed.to_dict()) == parsed
    assert parse_action({"api": "run_project"}).args == {}


def test_set_block_field_values_become_text():
    parsed = parse_action(
        {"api": "set_block_field", "args": {"index": 1, "field": "STEPS", "value": 20.0}}
    )
    assert parsed.args["value"] == "20"


@pytest.mark.parametrize(
    "raw,expected",
    [
        ({"api": "set_block_field", "args": {"index": 0, "field": "X", "value": 1}}, ">= 1"),
        (
            {"api": "set_block_field", "args": {"index": 1, "field": "X", "value": True}},
            "string or a number",
        ),
        ({"api": "add_variable", "args": {"name": "a", "scope": "global"}}, "one of sprite, all"),
        ({"api": "add_variable", "args": {"name": " "}}, "must not be empty"),
        ({"api": "add_block", "args": []}, "`args` must be an object"),
    ],
)
def test_shape_errors(raw, expected):
    with pytest.raises(ActionError, match=expected):
        parse_action(raw)


def test_unknown_opcode_suggests_and_lists():
    with pytest.raises(ActionError) as exc:
        CompositeActionModel().parse({"api": "add_block", "args": {"opcode": "motion_movestep"}})
    assert "Did you mean motion_movesteps" in str(exc.value)
    assert "operators: operator_add" in str(exc.value)


def test_prompt_and_table_come_from_the_catalogue():
    prompt, table = composite_prompt(), composite_actions_markdown()
    for api in COMPOSITE_APIS:
        assert f"- {api.name} {{" in prompt
        assert f"| `{api.name}` |" in table
    assert len(table.split("\n")) == len(COMPOSITE_APIS) + 2
    assert CompositeActionModel.prompt() == prompt
