"""The scripted endpoint's answers to ScratchWorld's **Agent-S2** and **AWM** agents (their
``task_runner.py --agent agent-s2 | awm``), next to scratch-agent's.

Each request is recognised by the role its prompt gives the model (:func:`request_kind`); the
answer comes from the same oracles as scratch-agent's (the composite plan, or the primitive
oracle resumed against the live ``serve`` session), in the reply format that agent parses.

**Agent-S2** (primitive mode only, as in ScratchWorld) asks several roles per turn:

* its *query formulator*, *planner* and *DAG translator* (first turn): a one-line search query, a
  one-step plan, and that plan as a one-node ``<json>{"dag": ...}</json>``;
* its *worker*: the next primitive-oracle gesture as their four-part answer ending in a
  ```json action; the places it touches are element descriptions (``description``,
  ``source_description``, ``target_description``), each naming the element under the oracle's
  point and the point itself (``[at screen point x=X y=Y]``); the worker's history carries the
  step and the session (``Playing on session ID``) as scratch-agent's does;
* its *grounder* (``Query: DESCRIPTION ... one point``): the point the description names,
  written in the grounder's resized frame (Agent-S2 maps UI-TARS-style answers from a
  28-pixel-rounded frame back to 1280x720: :func:`grounder_answer` inverts that mapping, so the
  runner clicks the oracle's own pixel). The grounder keeps no state: the description holds it;
* its *reflection*, *subtask* and *task summarisers*: a fixed "continue as planned", and the
  trajectory's own grounded actions listed back;
* ``/v1/embeddings`` for its knowledge base (:func:`embeddings`: hashed bags of words, so the
  same text always gets the same vector and similar texts similar ones).

**AWM** sends ``[system, user]`` only, every turn, with the latest five turns' ``<thinking>`` and
``<memory>`` quoted back in the user message: each reply puts the step and the session there, and
the next turn reads the latest ones (else the prompt's turn number). Composite mode plays the
composite plan, primitive mode the live primitive oracle, as for scratch-agent. Its self-judge
(``Status: success|failure``) says ``success`` when the trajectory ended with the oracle's
``done`` (it does not look at the project; their ``evaluate`` does); its workflow induction
writes each successful trajectory back as one workflow, its actions in order.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from typing import TYPE_CHECKING, Any

from scratch_gym.serve.scripted_primitive import PRIMITIVE_MARK, SESSION, RemoteChannel

if TYPE_CHECKING:
    from scratch_gym.serve.scripted_endpoint import ScriptedEndpoint

Action = dict[str, Any]
SCREEN = (1280, 720)
FACTOR = 28  # the grounder's frame: each side rounded to a multiple of 28 (UI-TARS's resize)
POINT = re.compile(r"\[at screen point x=(\d+) y=(\d+)\]")
STEP = re.compile(r"scripted oracle step (\d+)")
TURN = re.compile(r"Turn number: (\d+)")
JSON_BLOCK = re.compile(r"```json\s*(\{.*?\})\s*```", re.S)
EMBEDDING_DIM = 64

# What each role's prompt says (short phrases of their prompts, in order of precedence).
ROLES: tuple[tuple[str, str, str], ...] = (
    ("system", "Current Subtask:", "s2.worker"),
    ("system", "expert planning agent", "s2.planner"),
    ("system", "Dependency Graph conversion agent", "s2.dag"),
    ("system", "Given a Scratch task instruction", "s2.query"),
    ("system", "You are a reflection agent", "s2.reflection"),
    ("system", "plan and grounded actions", "s2.subtask_summary"),
    ("system", "summarization agent", "s2.task_summary"),
    ("system", "expert in evaluating the performance of a Scratch", "awm.judge"),
    ("system", "**Memory Section**", "awm.turn"),
    ("user", "Output only the coordinate of one point", "s2.grounder"),
    ("user", "extract the common workflows", "awm.induce"),
)


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


def _role_text(messages: list[dict[str, Any]], role: str) -> str:
    return "\n".join(_text(m.get("content")) for m in messages if m.get("role") == role)


def _latest(messages: list[dict[str, Any]], role: str) -> str:
    return next((_text(m.get("content")) for m in reversed(messages) if m.get("role") == role), "")


def request_kind(messages: list[dict[str, Any]]) -> str | None:
    """Agent-S2's or AWM's role for this request (``s2.worker``, ``awm.turn``, ...), or None for
    anything else (scratch-agent's turns)."""
    texts = {"system": _role_text(messages, "system"), "user": _latest(messages, "user")}
    return next((kind for role, phrase, kind in ROLES if phrase in texts[role]), None)


# -- the grounder ---------------------------------------------------------------------------------
def _resized(side: int) -> int:
    return max(FACTOR, round(side / FACTOR) * FACTOR)


def grounder_answer(x: int, y: int, screen: tuple[int, int] = SCREEN) -> tuple[int, int]:
    """The point in the grounder's frame that Agent-S2 maps back to screen pixel ``(x, y)``
    (it takes ``int(p / resized * side)`` per axis)."""
    out = []
    for p, side in ((x, screen[0]), (y, screen[1])):
        size = _resized(side)
        q = math.ceil(p * size / side)
        while int(q / size * side) > p:
            q -= 1
        while int(q / size * side) < p:
            q += 1
        out.append(q)
    return out[0], out[1]


def _label(elements: list[dict[str, Any]], x: int, y: int) -> str:
    """The smallest listed element whose box holds ``(x, y)``, in words."""
    hits = [
        e
        for e in elements
        if e.get("x", 0) <= x <= e.get("x", 0) + e.get("w", 0)
        and e.get("y", 0) <= y <= e.get("y", 0) + e.get("h", 0)
    ]
    if not hits:
        return "the screen"
    e = min(hits, key=lambda e: e.get("w", 0) * e.get("h", 0))
    name = " ".join(str(e.get("text") or e.get("opcode") or e.get("label") or "").split())[:60]
    return f"the {e.get('type', 'element')} {name!r}" if name else f"the {e.get('type')}"


def described(action: Action, elements: list[dict[str, Any]]) -> Action:
    """Their primitive call with its pixels replaced by element descriptions, as Agent-S2's
    worker writes them (its grounder turns them back into pixels)."""
    args = dict(action.get("args") or {})

    def desc(x: Any, y: Any) -> str:
        return f"{_label(elements, int(x), int(y))} [at screen point x={int(x)} y={int(y)}]"

    if "start_x" in args:
        args["source_description"] = desc(args.pop("start_x"), args.pop("start_y"))
        args["target_description"] = desc(args.pop("end_x"), args.pop("end_y"))
    elif "x" in args and "y" in args:
        args["description"] = desc(args.pop("x"), args.pop("y"))
    return {**action, "args": args} if args or "args" in action else action


# -- embeddings -----------------------------------------------------------------------------------
def embedding(text: str, dim: int = EMBEDDING_DIM) -> list[float]:
    """A unit vector: the text's lower-cased words hashed into ``dim`` buckets."""
    vec = [0.0] * dim
    for word in re.findall(r"\w+", text.lower()):
        h = int.from_bytes(hashlib.sha256(word.encode()).digest()[:4], "big")
        vec[h % dim] += 1.0 if h & 1 << 31 else -1.0
    norm = math.sqrt(sum(v * v for v in vec)) or 1.0
    return [v / norm for v in vec]


def embeddings(body: dict[str, Any]) -> dict[str, Any]:
    """An OpenAI ``/v1/embeddings`` answer for ``body["input"]`` (a string or a list)."""
    inputs = body.get("input")
    texts = [inputs] if isinstance(inputs, str) else [str(t) for t in inputs or []]
    data = [
        {"object": "embedding", "index": i, "embedding": embedding(t)} for i, t in enumerate(texts)
    ]
    return {"object": "list", "data": data, "model": body.get("model", "scripted-embedding")}


# -- the answers ----------------------------------------------------------------------------------
def answer(endpoint: ScriptedEndpoint, messages: list[dict[str, Any]]) -> str | None:
    """The reply to an Agent-S2 or AWM request, or None when it is neither's."""
    kind = request_kind(messages)
    if kind is None:
        return None
    system, user = _role_text(messages, "system"), _latest(messages, "user")
    if kind == "s2.grounder":
        found = POINT.search(user)
        if not found:
            return "(0,0)"  # a description the worker did not write: no point to give
        gx, gy = grounder_answer(int(found.group(1)), int(found.group(2)))
        return f"({gx},{gy})"
    if kind == "s2.query":
        task = user.split("The task is:", 1)[-1].split("\n", 1)[0].strip()
        return f"How to do this in the Scratch 3 editor: {task}"
    if kind == "s2.planner":
        return (
            "1. **Complete the task in the Scratch editor**:\n"
            "   - Follow scratch-gym's primitive oracle, one gesture per step, until it is done."
        )
    if kind == "s2.dag":
        node = {
            "name": "Complete the task in the Scratch editor",
            "info": "Follow scratch-gym's primitive oracle, one gesture per step, until it is done.",  # fmt: skip
        }
        return "<json>\n" + json.dumps({"dag": {"nodes": [node], "edges": []}}) + "\n</json>"
    if kind == "s2.reflection":
        return "Case 2. The trajectory is going according to plan; continue."
    if kind in ("s2.subtask_summary", "s2.task_summary"):
        actions = [m.group(1) for m in JSON_BLOCK.finditer(user)]
        return "\n".join(f"Grounded Action: {a}" for a in actions) or "No grounded actions."
    if kind == "s2.worker":
        return _s2_worker(endpoint, messages, system)
    if kind == "awm.turn":
        return _awm_turn(endpoint, system, user)
    if kind == "awm.judge":
        return _awm_judge(user)
    return _awm_induce(user)


def _session(endpoint: ScriptedEndpoint, named: str | None, task: str) -> tuple[str, Any]:
    from scratch_gym.serve.scripted_endpoint import EndpointError
    from scratch_gym.serve.scripted_primitive import SessionUnknown

    if endpoint.primitive is None:
        raise EndpointError("primitive mode needs the endpoint's --serve URL (serve --oracle-channel)")  # fmt: skip
    try:
        return endpoint.primitive.oracle(named, endpoint._task(task), endpoint.projects[task])
    except SessionUnknown as exc:
        raise EndpointError(str(exc)) from None


def _task_after(endpoint: ScriptedEndpoint, text: str, marker: str) -> str:
    """The task whose instruction follows ``marker`` (Agent-S2's ``- Task: ``)."""
    from scratch_gym.serve.scripted_endpoint import TASK_IS

    return endpoint.task_of(TASK_IS + text.split(marker, 1)[1] if marker in text else "")


def _s2_worker(endpoint: ScriptedEndpoint, messages: list[dict[str, Any]], system: str) -> str:
    from scratch_gym.serve.scripted_endpoint import next_step

    task = _task_after(endpoint, system, "- Task:")
    named = SESSION.search(_latest(messages, "assistant"))
    session, oracle = _session(endpoint, named.group(1) if named else None, task)
    step = next_step(messages) + 1
    action = oracle.next()
    if "args" in action and action["api"] in ("click", "double_click", "drag_and_drop", "scroll"):
        assert endpoint.primitive is not None
        channel = RemoteChannel(endpoint.primitive.serve_url, session, endpoint.primitive.token)
        action = described(action, channel.bridge.elements_list())
    return (
        "(Previous action verification)\nRead off the live session by scratch-gym's primitive oracle.\n\n"  # fmt: skip
        f"(Screenshot Analysis)\nscripted oracle step {step} for task {task}. Playing on session {session}.\n\n"  # fmt: skip
        f"(Next Action)\nThe oracle's next gesture: {action['api']}.\n\n"
        f"(Grounded Action)\n```json\n{json.dumps(action, ensure_ascii=False)}\n```"
    )


def _awm_turn(endpoint: ScriptedEndpoint, system: str, user: str) -> str:
    task = endpoint.task_of(system)
    steps = STEP.findall(user)
    turn = TURN.search(user)
    step = int(steps[-1]) if steps else (int(turn.group(1)) - 1 if turn else 0)
    if PRIMITIVE_MARK in system:
        named = SESSION.findall(user)
        session, oracle = _session(endpoint, named[-1] if named else None, task)
        action, total, where = oracle.next(), "", f" Playing on session {session}."
    else:
        plan = endpoint.planner.plan(task)
        action = plan[step][0] if step < len(plan) else {"api": "done"}
        total, where = f"/{len(plan)}", ""
        if step < len(plan) and plan[step][1].strip() and plan[step][1].strip() not in user:
            with endpoint.lock:
                endpoint.mismatches += 1
            where = " (the pseudocode shown differs from the plan's)"
    head = f"scripted oracle step {step + 1}{total} for task {task}"
    return (
        f"<thinking>\n{head}: {action['api']}.\n</thinking>\n<memory>\n{head}.{where}\n</memory>\n"
        f"```json\n{json.dumps(action, ensure_ascii=False)}\n```"
    )


def _awm_judge(user: str) -> str:
    history = user.split("Action History:", 1)[-1].split("\n\n", 1)[0]
    last = [line for line in history.splitlines() if line.strip()][-1:] or [""]
    done = '"api": "done"' in last[0]
    why = "the trajectory ended with the oracle's done" if done else "the oracle did not finish"
    return f'Thoughts: {why}.\nStatus: "{"success" if done else "failure"}"'


def _awm_induce(user: str) -> str:
    trajs = user.split("## Successful Trajectories", 1)[-1].split("\n\nQuery: ")
    flows = []
    for traj in trajs:
        query, _, actions = traj.removeprefix("\nQuery: ").partition("\nActions:\n")
        steps = [line for line in actions.splitlines() if line.startswith(("thought:", "action:"))]  # fmt: skip
        if query.strip() and sum(s.startswith("action:") for s in steps) >= 2:
            flows.append(f"Workflow {len(flows) + 1}: {query.strip()[:120]}\n" + "\n".join(steps))
    return "\n\n".join(flows)
