"""System prompts for each mode, generated from the action catalogues.

The action tables come from the catalogues themselves (``actions_markdown`` for primitive mode,
``composite_prompt`` of the composite catalogue, the ``drag`` entry of ``PRIMITIVE_ACTIONS``
for single-drag), so a change to an action changes the prompt.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from scratch_gym.agents.coords import Coordinates

INTRO = (
    "You are an agent operating the Scratch 3 editor to complete a programming task. "
    "Each turn you receive the task instruction, the current observation and your recent steps; "
    "you answer with exactly one action."
)
REPLY_FORMAT = (
    "Reply in this format:\n"
    "Analysis: <one short paragraph: what you see, what is left to do, what the next action does>\n"
    "<one JSON object: the action>\n"
    "Do not write anything after the JSON object."
)


def system_prompt(
    mode: str, coords: Coordinates | None = None, block_reference: bool = False
) -> str:
    """The system prompt of ``mode`` (``primitive``, ``composite``, ``single_drag``,
    ``perception`` or ``nl2scratch``). ``block_reference``: composite mode's prompt also lists
    every block add_block makes (opcode, scratchblocks text, field and input names; see
    :mod:`scratch_gym.actions.block_reference`)."""
    coords = coords or Coordinates()
    if block_reference and mode != "composite":
        raise ValueError(f"block_reference applies to composite mode only, not {mode!r}")
    if mode == "primitive":
        return primitive_prompt(coords)
    if mode == "composite":
        return composite_prompt(block_reference)
    if mode == "single_drag":
        return single_drag_prompt(coords)
    if mode == "perception":
        return perception_prompt()
    if mode == "nl2scratch":
        return program_prompt()
    raise ValueError(
        f"unknown mode {mode!r}; allowed: primitive, composite, single_drag, perception, nl2scratch"
    )


# sample values of the primitive actions' fields, for examples (screen pixels)
SAMPLE_FIELDS = {
    "start": [88, 140],
    "end": [420, 200],
    "text": "10",
    "keys": "Enter",
    "scroll": [0, 300],
}
EXAMPLE_API = "add_block"  # the composite API the examples show


def action_example(mode: str) -> str:
    """One valid action of ``mode`` as JSON, built from the mode's action catalogue: a primitive
    ``drag`` (primitive and single-drag modes), a composite API call with its catalogue example,
    or the text answer of the perception and nl2scratch modes. The system prompt and the retry hint
    after a malformed reply both show it."""
    if mode in ("primitive", "single_drag"):
        from scratch_gym.actions.primitive import PRIMITIVE_ACTIONS

        drag = next(a for a in PRIMITIVE_ACTIONS if a.name == "drag")
        return json.dumps({"action_type": drag.name, **{f: SAMPLE_FIELDS[f] for f in drag.fields}})
    if mode == "composite":
        from scratch_gym.actions.composite_catalogue import COMPOSITE_APIS

        api = next((a for a in COMPOSITE_APIS if a.name == EXAMPLE_API), COMPOSITE_APIS[0])
        return json.dumps({"api": api.name, "args": api.example})
    if mode == "perception":
        return json.dumps({"answer": "yes"})
    if mode == "nl2scratch":
        return json.dumps({"program": "when green flag clicked\nsay [Hello!] for (2) seconds"})
    raise ValueError(
        f"unknown mode {mode!r}; allowed: primitive, composite, single_drag, perception, nl2scratch"
    )


def primitive_prompt(coords: Coordinates) -> str:
    from scratch_gym.actions.primitive import actions_markdown

    return "\n\n".join(
        [
            INTRO,
            "You see a screenshot of the editor and act with the mouse and keyboard. "
            "Drag blocks from the palette onto the code area and onto each other to build scripts; "
            "click an input to edit it, then type. Answer `done` when the task is complete.",
            "## Actions\n" + actions_markdown(),
            "Write `action_type` as its name. " + coords.describe(),
            "Example: " + action_example("primitive"),
            REPLY_FORMAT,
        ]
    )


def composite_prompt(block_reference: bool = False) -> str:
    from scratch_gym.actions.block_reference import reference_prompt
    from scratch_gym.actions.composite_catalogue import composite_prompt as action_reference

    return "\n\n".join(
        [
            INTRO,
            "You see the program as scratchblocks text in which every block carries an index, "
            "with each field's value and choices, and the result of your last action. You edit "
            "the program with semantic calls. Indices refer to the latest observation.",
            "## Actions\n" + action_reference(),
            *([reference_prompt()] if block_reference else []),
            "Example: " + action_example("composite"),
            'Call {"api": "done", "args": {}} when the task is complete.',
            REPLY_FORMAT,
        ]
    )


def single_drag_prompt(coords: Coordinates) -> str:
    from scratch_gym.actions.primitive import PRIMITIVE_ACTIONS

    drag = next(a for a in PRIMITIVE_ACTIONS if a.name == "drag")
    return "\n\n".join(
        [
            INTRO,
            "This episode is a single drag: you get one action, and it must be `drag`.",
            f"`drag` (fields: {', '.join(drag.fields)}): {drag.description}",
            coords.describe(),
            "Example: " + action_example("single_drag"),
            REPLY_FORMAT,
        ]
    )


def perception_prompt() -> str:
    return "\n\n".join(
        [
            "You look at a screenshot of the Scratch 3 editor and answer one question about it.",
            "Answer yes/no questions with `yes` or `no`; answer a question about a block's field "
            "with the value exactly as the editor shows it.",
            "Example: " + action_example("perception"),
            REPLY_FORMAT.replace("the action", "your answer"),
        ]
    )


PAPER_PROGRAM_SYSTEM = (
    "You translate a description of a Scratch 3 program into the program, written as NL2Scratch "
    "pseudocode (scratchblocks text): one block per line, four spaces of indentation inside "
    "C-blocks, `end` closing each C-block. Reply with the program only: no explanation, no code "
    "fences."
)


def paper_program_messages(
    description: str, examples: Sequence[tuple[str, Sequence[str]]] = ()
) -> list[dict[str, str]]:
    """The messages of the ``paper`` generation protocol: a system prompt, then one user message
    with the retrieved ``examples`` (description, program lines), nearest first, and the
    description to translate. scratch-gym's own wording: the paper does not print its prompt."""
    parts = []
    if examples:
        parts.append("Examples:")
        for nl, program in examples:
            parts.append(f"Description: {nl}\nProgram:\n" + "\n".join(program))
        parts.append("Now the description to translate.")
    parts.append(f"Description: {description}\nProgram:")
    return [
        {"role": "system", "content": PAPER_PROGRAM_SYSTEM},
        {"role": "user", "content": "\n\n".join(parts)},
    ]


def program_prompt() -> str:
    return "\n\n".join(
        [
            "You write a Scratch 3 program for a description, as scratchblocks text (one block "
            "per line, `end` closing C-blocks, scripts separated by a blank line).",
            "You get the description, the sprite the program is for, the project's context "
            "(sprites, costumes, variables, messages) and, after a program that did not parse, "
            "the error with its line and column.",
            "Example: " + action_example("nl2scratch"),
            REPLY_FORMAT.replace("the action", "the program"),
        ]
    )
