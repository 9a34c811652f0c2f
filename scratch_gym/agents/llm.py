"""An agent backed by any OpenAI-compatible chat-completions endpoint, with images.

Each turn sends the mode's system prompt (generated from the action catalogue), the instruction,
the recent steps with their errors, the observation (the screenshot as a base64 PNG data URL in
primitive and single-drag modes; the program text in composite mode) and reads one action from
the reply. Model coordinates are converted to screen pixels (:mod:`scratch_gym.agents.coords`).
A reply that cannot be parsed is sent back to the model with the error and an example action of
the mode (bounded); if it still cannot be parsed, the step is spent (on a placeholder the
environment rejects, so the episode goes on), and the parse error is that step's one error in the
next prompt. ``info["parse_error"]`` and ``info["reply"]`` hold it and the raw reply for the
results record.
"""

from __future__ import annotations

import base64
import io
import json
from collections import deque
from typing import Any

import numpy as np
from PIL import Image

from scratch_gym.agents.base import Agent
from scratch_gym.agents.chat_client import ChatClient
from scratch_gym.agents.coords import Coordinates
from scratch_gym.agents.parsing import ReplyParseError, parse_reply
from scratch_gym.agents.prompts import action_example, system_prompt

POINT_FIELDS = ("start", "end")
UNPARSEABLE = "unparseable_reply"


def png_data_url(image: np.ndarray, size: tuple[int, int] | None = None) -> str:
    """A ``data:image/png;base64,...`` URL of an RGB array, resized to ``size`` = (w, h)."""
    pil = Image.fromarray(np.asarray(image, dtype=np.uint8))
    if size is not None and pil.size != tuple(size):
        pil = pil.resize(size, Image.BICUBIC)
    buf = io.BytesIO()
    pil.save(buf, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


# modes whose action is one text: the JSON key the model writes it under
TEXT_ANSWERS = {"perception": "answer", "nl2scratch": "program"}


class LLMAgent(Agent):
    """A chat model as a policy. ``client`` talks to the endpoint; ``coords`` maps its points."""

    name = "llm"

    def __init__(
        self,
        client: ChatClient,
        mode: str = "primitive",
        coords: str | Coordinates = "pixels",
        history: int = 5,
        parse_retries: int = 1,
        temperature: float = 0.0,
        max_tokens: int = 1024,
    ) -> None:
        super().__init__()
        self.client = client
        self.mode = mode
        self.coords = coords if isinstance(coords, Coordinates) else Coordinates(coords)
        self.system = system_prompt(mode, self.coords)
        self.example = action_example(mode)
        self.history: deque[dict[str, Any]] = deque(maxlen=max(0, history))
        self.parse_retries = parse_retries
        self.params = {"temperature": temperature, "max_tokens": max_tokens}
        self.usage_total: dict[str, int] = {}
        self._step = 0

    def reset(self, task: Any = None) -> None:
        super().reset(task)
        self.history.clear()
        self.usage_total = {}
        self._step = 0

    def act(self, observation: Any, info: dict[str, Any]) -> Any:
        self._step += 1
        if self.history and not self.history[-1]["unparsed"]:  # else: its error is the parse error
            self.history[-1]["error"] = _last_error(observation, info)
        messages = [
            {"role": "system", "content": self.system},
            {"role": "user", "content": self._user_content(observation)},
        ]
        usage: dict[str, int] = {}
        attempts = 0
        errors: list[str] = []
        action: Any = None
        said: Any = None  # the action as the model wrote it (model coordinates)
        analysis = ""
        text = ""
        for _ in range(self.parse_retries + 1):
            reply = self.client.complete(messages, **self.params)
            attempts += reply.attempts
            _add(usage, reply.usage)
            text = reply.text
            try:
                parsed = parse_reply(text, self.example)
                action = self._to_env(parsed.action)
                said = parsed.action
                analysis = parsed.analysis
                break
            except ReplyParseError as exc:
                errors.append(str(exc))
                shown = self.example in str(exc)  # else: show the mode's example action
                messages += [
                    {"role": "assistant", "content": text},
                    {
                        "role": "user",
                        "content": f"Your reply could not be parsed: {exc}. Answer again: "
                        "Analysis: paragraph, then one JSON object"
                        + ("." if shown else f", e.g. {self.example}"),
                    },
                ]
        parse_error = ""
        if action is None:
            parse_error = f"your reply could not be parsed: {errors[-1]}"
            action = self._unparseable()
        _add(self.usage_total, usage)
        self.history.append(
            {
                "step": self._step,
                "action": _summary(said) if said is not None else f"(reply) {_summary(text)}",
                "error": parse_error,
                "unparsed": bool(parse_error),
            }
        )
        self.info = {
            "reply": text,
            "analysis": analysis,
            "parse_errors": errors,
            "parse_error": parse_error,
            "http_attempts": attempts,
            "usage": usage,
            "usage_total": dict(self.usage_total),
        }
        return action

    # -- prompt --------------------------------------------------------------------------------
    def _user_content(self, observation: Any) -> list[dict[str, Any]]:
        obs = observation if isinstance(observation, dict) else {}
        lines = [f"## Instruction\n{obs.get('instruction', '')}"]
        if self.history:
            lines.append("## Your recent steps")
            for h in self.history:
                err = f" -> error: {h['error']}" if h["error"] else ""
                lines.append(f"{h['step']}. {h['action']}{err}")
        unparsed = bool(self.history) and self.history[-1]["unparsed"]
        for key, value in obs.items():
            if key in ("instruction", "screenshot") or not isinstance(value, str):
                continue
            if key == "last_action_error" and unparsed:  # the placeholder's: the reply's is above
                continue
            if value:
                lines.append(f"## {key.replace('_', ' ').capitalize()}\n{value}")
        content: list[dict[str, Any]] = [{"type": "text", "text": "\n".join(lines)}]
        shot = obs.get("screenshot")
        if isinstance(shot, np.ndarray) and shot.ndim == 3:
            url = png_data_url(shot, self.coords.image_size)
            content.append({"type": "image_url", "image_url": {"url": url}})
        return content

    # -- actions -------------------------------------------------------------------------------
    def _to_env(self, action: dict[str, Any]) -> Any:
        if self.mode in TEXT_ANSWERS:
            key = TEXT_ANSWERS[self.mode]
            if not isinstance(action.get(key), str):
                raise ReplyParseError(
                    f'the JSON object must be {{"{key}": "..."}} (a string), e.g. {self.example}'
                )
            return action[key]
        if self.mode == "composite":
            if "api" not in action:
                raise ReplyParseError(
                    f'a composite action is {{"api": NAME, "args": {{...}}}}, e.g. {self.example}'
                )
            return {"api": action["api"], "args": action.get("args") or {}}
        if "action_type" not in action and "type" in action:
            action = {**action, "action_type": action["type"]}
        if "action_type" not in action:
            raise ReplyParseError(f"the JSON object has no 'action_type', e.g. {self.example}")
        out = dict(action)
        out.pop("type", None)
        for name in POINT_FIELDS:
            if name in out and out[name] is not None:
                out[name] = self._point(name, out[name])
        return out

    def _point(self, name: str, value: Any) -> list[float]:
        if isinstance(value, dict):
            value = [value.get("x"), value.get("y")]
        try:
            x, y = (float(v) for v in value)
        except (TypeError, ValueError):
            raise ReplyParseError(f"'{name}' must be [x, y] numbers, got {value!r:.60}") from None
        return list(self.coords.to_screen(x, y))

    def _unparseable(self) -> Any:
        if self.mode in TEXT_ANSWERS:
            return UNPARSEABLE
        if self.mode == "composite":
            return {"api": UNPARSEABLE, "args": {}}
        return {"action_type": UNPARSEABLE}


def _last_error(observation: Any, info: dict[str, Any]) -> str:
    if isinstance(observation, dict) and observation.get("last_action_error"):
        return str(observation["last_action_error"])
    return str(info.get("last_action_error") or "")


def _summary(action: Any) -> str:
    return json.dumps(action, default=str, ensure_ascii=False)[:300]


def _add(total: dict[str, int], part: dict[str, int]) -> None:
    for k, v in part.items():
        total[k] = total.get(k, 0) + v
