"""Reading an action out of a model's reply: an ``Analysis:`` paragraph, then one JSON object.

Tolerant of code fences (```json ... ```), of text around the object, and of a missing
``Analysis:`` label; the last top-level JSON object in the reply is the action.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

_ANALYSIS = re.compile(r"analysis\s*:\s*", re.IGNORECASE)
_FENCE = re.compile(r"```[a-zA-Z]*")


class ReplyParseError(ValueError):
    """The reply holds no usable action; the message says what is wrong, for the model."""


@dataclass(frozen=True)
class ParsedReply:
    analysis: str
    action: dict[str, Any]


def parse_reply(text: str, example: str = "") -> ParsedReply:
    """The analysis text and the action object of a reply (raises ReplyParseError).

    ``example``: one valid action of the agent's mode as JSON (``prompts.action_example``),
    shown in the error so that the model's next try has the right shape."""
    if not isinstance(text, str) or not text.strip():
        raise ReplyParseError("the reply is empty")
    cleaned = _FENCE.sub("", text)
    objects = list(_json_objects(cleaned))
    if not objects:
        such = f" such as {example}" if example else " (the action)"
        raise ReplyParseError(f"no JSON object found; end the reply with one JSON object{such}")
    start, action = objects[-1]
    match = _ANALYSIS.search(cleaned[:start])
    analysis = cleaned[match.end() if match else 0 : start].strip()
    return ParsedReply(analysis=analysis, action=action)


def _json_objects(text: str):
    """Top-level ``{...}`` spans of ``text`` that decode to JSON objects: (offset, object)."""
    decoder = json.JSONDecoder()
    i = 0
    while True:
        i = text.find("{", i)
        if i < 0:
            return
        try:
            obj, end = decoder.raw_decode(text, i)
        except json.JSONDecodeError:
            i += 1
            continue
        if isinstance(obj, dict):
            yield i, obj
            i = end
        else:
            i += 1
