"""A scripted OpenAI-compatible chat endpoint that plays scratch-gym's oracle in ScratchWorld's
agents' reply format: an agent harness checked end to end without a model.

``python -m scratch_gym.serve.scripted_endpoint --scratchworld PATH [--port P] [--task NAME]``
serves ``POST /v1/chat/completions`` (and ``GET /v1/models``) on 127.0.0.1. Point an agent at it
(``LLM_BASE_URL=http://127.0.0.1:P/v1``) and it answers every turn with the next action of
scratch-gym's composite oracle (:class:`~scratch_gym.agents.composite_oracle.CompositeOracleAgent`)
for the conversation's task, as scratch-agent's prompt asks for it::

    Analysis: scripted oracle step 3/9 for task calculate_gcd.
    ```json
    {"api": "connect_blocks", "args": {"sourceBlockIndex": 4, "targetBlockIndex": 2, ...}}
    ```

and ``{"api": "done"}`` after the last step.

**The task.** ``--task NAME`` fixes it for every conversation. Without it the task is the one
whose ``instruction`` (their task JSON's field) the conversation's system prompt quotes after
``Your task is:``, as scratch-agent's system prompts do; a prompt that quotes none (or several
tasks' instructions equally) gets an HTTP 400 naming the fix (``--task``).

**The plan.** On a conversation's first turn the endpoint plays the oracle to the end on its own
scratch-gym env (a private Chromium on one planner thread: Playwright is thread-bound), from the
task's initial project, and writes each action in their API's names and arguments
(``opcode`` -> ``blockType``, ``variable``/``list`` -> ``creation.variableName``/``listName``,
``source``/``target``/``placement``/``input`` -> ``sourceBlockIndex``/``targetBlockIndex``/
``placement.kind``/``placement.inputName``, ``index`` -> ``blockIndex``, ``field`` ->
``fieldName``) with the block numbers their ``get_blocks_pseudocode`` shows at that step. The
served session starts from the same project and receives the same actions, so its numbering
follows the plan's; each turn the endpoint checks that the pseudocode the agent was shown is the
plan's (``mismatches`` counts the turns where it is not). Plans are kept per task.

**The step.** Each reply names its step (``step K/N``); a turn's step is one past the one named
in the conversation's latest assistant message, so the endpoint keeps no per-conversation state
and survives the agent's history truncation.

**Primitive mode** (a system prompt of scratch-agent's primitive mode, ``using primitive UI
actions``): with ``--serve URL`` of a ``scratch-gym serve --oracle-channel``, each turn is the next
gesture of scratch-gym's primitive oracle, read off the live session the agent controls, in their
primitive API (``click``/``drag_and_drop``/``scroll``/``type``/``key``/``hotkey`` with 1280x720
pixels); see :mod:`scratch_gym.serve.scripted_primitive`. Without ``--serve`` such a turn gets
``{"api": "failed"}`` with the reason. A request repeated verbatim (a client's retry) gets the
same answer again: no oracle moves twice for one turn.

**Their drag runner** (``run_single_step_drag_benchmark.py``, a prompt that says ``You need to
perform a drag-and-drop action``) gets scratch-gym's drag oracle's drag for the task, in the
``drag(start_point=..., end_point=...)`` format it parses; see
:mod:`scratch_gym.serve.scripted_drag`.

**Agent-S2 and AWM** (their runner's ``--agent agent-s2`` and ``--agent awm``): their requests are
recognised by role and answered from the same oracles (and ``POST /v1/embeddings`` serves
Agent-S2's knowledge base); see :mod:`scratch_gym.serve.scripted_agents`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import queue
import re
import sys
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

Action = dict[str, Any]
STEP = re.compile(r"scripted oracle step (\d+)(?:/(\d+))?")
CACHED = 512  # answers kept for repeated requests
TASK_IS = "Your task is:"
COMPOSITE_MARK = "using high-level APIs"


class EndpointError(ValueError):
    """A request the endpoint cannot script (HTTP 400)."""


# -- the conversation ---------------------------------------------------------------------------
def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


def _messages(body: dict[str, Any]) -> list[dict[str, Any]]:
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise EndpointError("'messages' must be a non-empty list")
    return [m for m in messages if isinstance(m, dict)]


def system_text(messages: list[dict[str, Any]]) -> str:
    return "\n".join(_text(m.get("content")) for m in messages if m.get("role") == "system")


def next_step(messages: list[dict[str, Any]]) -> int:
    """0-based: one past the step named in the latest assistant message (0 when none)."""
    for m in reversed(messages):
        if m.get("role") == "assistant":
            found = STEP.search(_text(m.get("content")))
            if found:
                return int(found.group(1))
    return 0


def reply(step: int, total: int | None, task: str, action: Action, note: str = "") -> str:
    """The reply text: ``Analysis: scripted oracle step K/N for task T.`` (``step K`` when the
    number of steps is not known ahead), ``note``, and the action as one ```json block."""
    of = f"/{total}" if total is not None else ""
    head = f"Analysis: scripted oracle step {step}{of} for task {task}."
    body = json.dumps(action, ensure_ascii=False)
    return f"{head}{' ' + note if note else ''}\n```json\n{body}\n```"


# -- their API names ----------------------------------------------------------------------------
def theirs(
    action: Action, our_ids: Callable[[int], str], their_index: Callable[[str], int]
) -> Action:
    """scratch-gym's composite action as ScratchWorld's composite API call; block numbers go
    from scratch-gym's numbering to theirs through the block's id."""
    api, args = action["api"], dict(action.get("args") or {})

    def index(n: int) -> int:
        return their_index(our_ids(n))

    if api == "add_block":
        out: dict[str, Any] = {"blockType": args["opcode"]}
        creation = {
            k: args[m]
            for k, m in (("variableName", "variable"), ("listName", "list"))
            if args.get(m)
        }
        return {"api": api, "args": {**out, **({"creation": creation} if creation else {})}}
    if api == "connect_blocks":
        placement = {"kind": args["placement"]}
        if args.get("input"):
            placement["inputName"] = args["input"]
        return {
            "api": api,
            "args": {
                "sourceBlockIndex": index(args["source"]),
                "targetBlockIndex": index(args["target"]),
                "placement": placement,
            },
        }
    if api in ("detach_blocks", "delete_block"):
        return {"api": api, "args": {"blockIndex": index(args["index"])}}
    if api == "set_block_field":
        return {
            "api": api,
            "args": {
                "blockIndex": index(args["index"]),
                "fieldName": args["field"],
                "value": args["value"],
            },
        }
    if api in ("done", "failed", "select_stage"):
        return {"api": api, **({"args": args} if args else {})}
    return {"api": api, "args": args}  # select_sprite, add_variable, add_list: same names


# -- the planner --------------------------------------------------------------------------------
class Planner:
    """Plays the composite oracle on a private env, on one thread that owns its browser."""

    def __init__(self, scratchworld: Path, max_steps: int = 200) -> None:
        self.scratchworld = Path(scratchworld)
        self.max_steps = max_steps
        self.plans: dict[str, list[tuple[Action, str]]] = {}
        self._jobs: queue.Queue[tuple[str, queue.Queue[Any]] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._serve, name="scripted-planner", daemon=True)
        self._thread.start()

    def plan(self, task: str) -> list[tuple[Action, str]]:
        """``[(their action, the pseudocode text shown before it), ...]``, ending in ``done``."""
        if task not in self.plans:
            answer: queue.Queue[Any] = queue.Queue()
            self._jobs.put((task, answer))
            result = answer.get()
            if isinstance(result, BaseException):
                raise result
            self.plans[task] = result
        return self.plans[task]

    def close(self) -> None:
        self._jobs.put(None)
        self._thread.join(60)

    def _serve(self) -> None:
        env = None
        try:
            while (job := self._jobs.get()) is not None:
                task, answer = job
                try:
                    if env is None:
                        import gymnasium as gym

                        import scratch_gym  # noqa: F401  (registers the ids)

                        env = gym.make("ScratchWorld-Composite-v0")
                    answer.put(self._play(env, task))
                except BaseException as exc:  # handed to the requester
                    answer.put(exc)
        finally:
            if env is not None:
                env.close()

    def _play(self, env: Any, name: str) -> list[tuple[Action, str]]:
        from scratch_gym.agents.base import privileged_channel
        from scratch_gym.agents.composite_oracle import CompositeOracleAgent
        from scratch_gym.observations.scratchworld_pseudocode import scratchworld_pseudocode
        from scratch_gym.program.numbering import number_blocks
        from scratch_gym.scratchworld.tasks import scratchworld_tasks

        (task,) = scratchworld_tasks(self.scratchworld, names=[name])
        agent = CompositeOracleAgent()
        agent.bind(env)
        bridge = privileged_channel(env).bridge
        obs, info = env.reset(options=task.reset_options())
        agent.reset(task)
        plan: list[tuple[Action, str]] = []
        for _ in range(self.max_steps):
            action = agent.act(obs, info)
            data = scratchworld_pseudocode(bridge.composite_scratchworld_view())
            ids = {entry["id"]: int(i) for i, entry in data["idxToBlock"].items()}
            ours = number_blocks(bridge.composite_blocks()["blocks"])
            plan.append((theirs(action, ours.id_of, ids.__getitem__), data["pseudocode"]))
            if action["api"] in ("done", "failed"):
                return plan
            obs, _, terminated, truncated, info = env.step(action)
            if obs.get("last_action_error"):
                raise RuntimeError(
                    f"the oracle's action {action} failed: {obs['last_action_error']}"
                )
        raise RuntimeError(f"the oracle did not finish {name} in {self.max_steps} steps")


# -- the endpoint -------------------------------------------------------------------------------
class ScriptedEndpoint:
    """``POST /v1/chat/completions`` on 127.0.0.1 answering with the oracle's next action."""

    def __init__(
        self,
        scratchworld: str | Path,
        port: int = 0,
        task: str | None = None,
        serve_url: str | None = None,
        token: str | None = None,
        drag_regions: str = "model",
    ) -> None:
        from scratch_gym.scratchworld.tasks import ScratchWorldCheckout
        from scratch_gym.serve.scripted_drag import DragPlayer
        from scratch_gym.serve.scripted_primitive import PrimitivePlayer

        self.scratchworld = Path(scratchworld)
        self.task = task
        checkout = ScratchWorldCheckout(self.scratchworld)
        self.instructions: dict[str, str] = {}
        self.projects: dict[str, str] = {}  # task -> its initial_project
        for path in checkout.task_files():
            data = json.loads(path.read_text(encoding="utf-8"))
            self.instructions[str(data["name"])] = str(data.get("instruction", "")).strip()
            self.projects[str(data["name"])] = str(data.get("initial_project", ""))
        self.planner = Planner(self.scratchworld)
        self.primitive = PrimitivePlayer(serve_url, token) if serve_url else None
        self.drag = DragPlayer(self.scratchworld, drag_regions)
        self.drags = 0  # drag runner turns answered
        self._tasks: dict[str, Any] = {}  # scratch-gym's task objects (with goldens), by name
        self._answers: dict[str, str] = {}  # request digest -> answer (repeats get the same)
        self.requests = 0
        self.mismatches = 0
        self.lock = threading.Lock()
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                if self.path.rstrip("/").endswith("/models"):
                    self._send(
                        200,
                        {"object": "list", "data": [{"id": "scripted-oracle", "object": "model"}]},
                    )
                else:
                    self._send(404, {"error": {"message": "not found"}})

            def do_POST(self) -> None:  # noqa: N802
                if self.path.rstrip("/").endswith("/embeddings"):  # Agent-S2's knowledge base
                    from scratch_gym.serve.scripted_agents import embeddings

                    length = int(self.headers.get("Content-Length", 0))
                    self._send(200, embeddings(json.loads(self.rfile.read(length) or b"{}")))
                    return
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, {"error": {"message": "not found"}})
                    return
                try:
                    body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                    content = endpoint.answer(body)
                except (EndpointError, json.JSONDecodeError) as exc:
                    self._send(
                        400, {"error": {"message": str(exc), "type": "invalid_request_error"}}
                    )
                    return
                except Exception as exc:  # noqa: BLE001 - reported to the caller
                    self._send(500, {"error": {"message": f"{type(exc).__name__}: {exc}"}})
                    return
                self._send(200, completion(content, body.get("model", "scripted-oracle")))

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return int(self.httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def task_of(self, system: str) -> str:
        if self.task:
            return self.task
        quoted = system.split(TASK_IS, 1)[1] if TASK_IS in system else ""
        found = [
            n for n, text in self.instructions.items() if text and quoted.lstrip().startswith(text)
        ]
        if len(found) > 1:  # one instruction a prefix of another: the longest is the task
            longest = max(len(self.instructions[n]) for n in found)
            found = [n for n in found if len(self.instructions[n]) == longest]
        if len(found) != 1:
            raise EndpointError(
                "cannot tell the task from the system prompt (no single task's instruction "
                "follows 'Your task is:'); start the endpoint with --task NAME"
            )
        return found[0]

    def answer(self, body: dict[str, Any]) -> str:
        with self.lock:
            self.requests += 1
        messages = _messages(body)
        digest = hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).hexdigest()
        with self.lock:
            if digest in self._answers:
                return self._answers[digest]
        text = self._answer(messages)
        with self.lock:
            while len(self._answers) >= CACHED:
                self._answers.pop(next(iter(self._answers)))
            self._answers[digest] = text
        return text

    def _answer(self, messages: list[dict[str, Any]]) -> str:
        from scratch_gym.serve.scripted_agents import answer as agents_answer
        from scratch_gym.serve.scripted_drag import DRAG_MARK
        from scratch_gym.serve.scripted_primitive import PRIMITIVE_MARK

        system = system_text(messages)
        if DRAG_MARK in system:  # their Single-Step Drag runner
            return self._drag(system)
        if (text := agents_answer(self, messages)) is not None:  # Agent-S2's and AWM's roles
            return text
        task = self.task_of(system)
        step = next_step(messages)
        if PRIMITIVE_MARK in system:
            return self._primitive(messages, task, step)
        if COMPOSITE_MARK not in system:
            return reply(
                step + 1,
                step + 1,
                task,
                {
                    "api": "failed",
                    "reason": "not a prompt of scratch-agent's composite or primitive mode",
                },  # fmt: skip
            )
        plan = self.planner.plan(task)
        if step >= len(plan):
            return reply(step + 1, len(plan), task, {"api": "done"})
        action, shown = plan[step]
        latest = next((m for m in reversed(messages) if m.get("role") == "user"), {})
        note = ""
        if shown.strip() and shown.strip() not in _text(latest.get("content")):
            with self.lock:
                self.mismatches += 1
            note = "(the pseudocode shown differs from the plan's)"
        return reply(step + 1, len(plan), task, action, note)

    def _primitive(self, messages: list[dict[str, Any]], task: str, step: int) -> str:
        from scratch_gym.serve.scripted_primitive import SESSION, SessionUnknown

        if self.primitive is None:
            reason = "primitive mode needs the endpoint's --serve URL (serve --oracle-channel)"
            return reply(step + 1, None, task, {"api": "failed", "reason": reason})
        latest = next((m for m in reversed(messages) if m.get("role") == "assistant"), {})
        named = SESSION.search(_text(latest.get("content")))
        try:
            session, oracle = self.primitive.oracle(
                named.group(1) if named else None, self._task(task), self.projects[task]
            )
        except SessionUnknown as exc:
            raise EndpointError(str(exc)) from None
        action = oracle.next()
        return reply(step + 1, None, task, action, f"Playing on session {session}.")

    def _drag(self, system: str) -> str:
        """Their drag runner's turn: the drag oracle's drag for the conversation's task."""
        from scratch_gym.serve.scripted_drag import DragTaskUnknown, drag_reply
        from scratch_gym.serve.scripted_primitive import list_sessions

        def projects() -> list[str]:
            if self.primitive is None:
                return []
            open_ = list_sessions(self.primitive.serve_url, self.primitive.token)
            return [str(i.get("project")) for i in open_.values()]

        try:
            name, task = self.drag.task_of(system, projects)
        except DragTaskUnknown as exc:
            raise EndpointError(str(exc)) from None
        start, end = self.drag.drag(task)
        with self.lock:
            self.drags += 1
        return drag_reply(name, start, end)

    def _task(self, name: str) -> Any:
        """scratch-gym's task for their task ``name`` (its golden solution included)."""
        from scratch_gym.scratchworld.tasks import scratchworld_tasks

        with self.lock:
            if name not in self._tasks:
                (self._tasks[name],) = scratchworld_tasks(self.scratchworld, names=[name])
            return self._tasks[name]

    def __enter__(self) -> ScriptedEndpoint:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.planner.close()


def completion(content: str, model: str) -> dict[str, Any]:
    return {
        "id": "scripted",
        "object": "chat.completion",
        "model": model,
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {"role": "assistant", "content": content},
            }
        ],
        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scratch_gym.serve.scripted_endpoint", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--scratchworld", required=True, help="ScratchWorld checkout (its tasks/)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--task", default=None, help="play this task in every conversation")
    parser.add_argument(
        "--serve",
        default=None,
        metavar="URL",
        help="a scratch-gym serve --oracle-channel whose sessions primitive-mode agents control",
    )
    parser.add_argument("--token", default=None, help="that service's bearer token, if any")
    parser.add_argument(
        "--drag-regions",
        choices=("model", "editor"),
        default="model",
        help="how drag tasks' feasible regions are probed when not cached (default: model)",
    )
    args = parser.parse_args(argv)
    endpoint = ScriptedEndpoint(
        args.scratchworld, args.port, args.task, args.serve, args.token, args.drag_regions
    )
    print(f"scripted endpoint on {endpoint.base_url}", file=sys.stderr, flush=True)
    with endpoint:
        try:
            endpoint.thread.join()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
