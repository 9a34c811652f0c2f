"""A minimal client for OpenAI-compatible chat-completions endpoints (stdlib HTTP).

Every choice of a reply is kept (:class:`ChatChoice`), with its length-normalised log-likelihood
(the mean token log-probability) when the request asked for ``logprobs``.

The API key is read from an environment variable when the client is made and is sent only in the
``Authorization`` header; it is never logged or put in errors or ``repr``.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from scratch_gym.agents.base import AgentError

RETRY_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})


@dataclass(frozen=True)
class ChatChoice:
    """One generated choice: its text and, with log-probs, their mean over its tokens."""

    text: str
    logprob_mean: float | None = None
    tokens: int | None = None


@dataclass
class ChatReply:
    text: str
    usage: dict[str, int]
    attempts: int
    latency_s: float
    choices: list[ChatChoice] = field(default_factory=list)


@dataclass
class ChatClient:
    """POSTs ``{base_url}/chat/completions`` with bounded retries and exponential backoff."""

    base_url: str
    model: str
    api_key_env: str | None = "OPENAI_API_KEY"
    timeout_s: float = 120.0
    max_retries: int = 3
    backoff_s: float = 1.0
    max_backoff_s: float = 30.0
    extra_body: dict[str, Any] = field(default_factory=dict)
    _key: str | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.base_url = self.base_url.rstrip("/")
        self._key = os.environ.get(self.api_key_env) if self.api_key_env else None

    def complete(self, messages: list[dict[str, Any]], **params: Any) -> ChatReply:
        """One chat completion; retries network errors and 408/409/429/5xx, raises AgentError."""
        body = {"model": self.model, "messages": messages, **self.extra_body, **params}
        data = json.dumps(body).encode("utf-8")
        headers = {"Content-Type": "application/json"}
        if self._key:
            headers["Authorization"] = f"Bearer {self._key}"
        t0 = time.perf_counter()
        last = ""
        for attempt in range(1, self.max_retries + 2):
            request = urllib.request.Request(
                f"{self.base_url}/chat/completions", data=data, headers=headers, method="POST"
            )
            try:
                with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
                    payload = json.loads(response.read().decode("utf-8"))
                return self._reply(payload, attempt, time.perf_counter() - t0)
            except urllib.error.HTTPError as exc:
                last = f"HTTP {exc.code}: {_body(exc)}"
                if exc.code not in RETRY_STATUS:
                    raise AgentError(f"chat endpoint refused the request ({last})") from None
            except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
                last = f"{type(exc).__name__}: {getattr(exc, 'reason', exc)}"
            except (json.JSONDecodeError, KeyError, IndexError, TypeError) as exc:
                last = f"malformed response: {exc}"
            if attempt <= self.max_retries:
                time.sleep(min(self.max_backoff_s, self.backoff_s * 2 ** (attempt - 1)))
        raise AgentError(f"chat endpoint failed after {self.max_retries + 1} attempts ({last})")

    @staticmethod
    def _reply(payload: dict[str, Any], attempts: int, latency_s: float) -> ChatReply:
        choices = [_choice(c) for c in payload["choices"]]
        usage = payload.get("usage") or {}
        return ChatReply(
            text=choices[0].text,
            usage={k: int(v) for k, v in usage.items() if isinstance(v, int)},
            attempts=attempts,
            latency_s=latency_s,
            choices=choices,
        )


def _choice(choice: dict[str, Any]) -> ChatChoice:
    """A choice of a chat-completions response; its token log-probs are read from
    ``logprobs.content[].logprob`` (chat format) or ``logprobs.token_logprobs`` (completions)."""
    content = choice["message"]["content"]
    if isinstance(content, list):  # some servers return content parts
        content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
    logprobs = choice.get("logprobs") or {}
    if isinstance(logprobs.get("content"), list):
        values = [t.get("logprob") for t in logprobs["content"] if isinstance(t, dict)]
    else:
        values = logprobs.get("token_logprobs") or []
    values = [float(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    mean = sum(values) / len(values) if values else None
    return ChatChoice(content or "", mean, len(values) if values else None)


def _body(exc: urllib.error.HTTPError) -> str:
    try:
        return exc.read().decode("utf-8", "replace")[:300]
    except Exception:  # noqa: BLE001 - the body is only for the message
        return ""
