"""``scratch-gym run``: run one real episode in the editor and show each step."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import gymnasium as gym
from PIL import Image

from scratch_gym.agents.demo import DemoAgent
from scratch_gym.cli.output import print_json_last, table


def register(sub: argparse._SubParsersAction) -> None:
    from scratch_gym.agents.factory import AGENTS
    from scratch_gym.cli.eval import add_llm_arguments
    from scratch_gym.runner.status import exit_codes_help

    p = sub.add_parser(
        "run",
        help="run one episode in the editor and print each step",
        epilog=exit_codes_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )

    p.add_argument("--task", default=None, help="play this task (else: the demo episode)")
    p.add_argument(
        "--agent", default=None, choices=["demo", *AGENTS], help="demo (no task) or a task agent"
    )
    p.add_argument("--mode", default="primitive", choices=["primitive", "composite"])
    p.add_argument("--record", metavar="DIR", help="save a GIF + HTML recording of the episode")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--env", default="ScratchWorld-Primitive-v0", help="environment id (demo)")
    p.add_argument("--project", default=None, help="starting project (.sb3 or project.json)")
    p.add_argument("--out", default="runs/demo", help="folder for the last screenshot (demo)")
    p.add_argument("--json", action="store_true", help="print one JSON object last")
    add_llm_arguments(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import scratch_gym  # noqa: F401  (registers the ids)

    if args.task is not None:
        return _run_task(args)
    if args.agent not in (None, "demo"):
        raise SystemExit("--agent other than demo needs --task (the demo episode has no task)")

    t0 = time.perf_counter()
    env = gym.make(args.env, render_mode="rgb_array", project=args.project)
    try:
        obs, info = env.reset(seed=0)
        create_s = time.perf_counter() - t0
        print(
            f"environment {args.env} ready in {create_s:.2f} s (reset {info['reset_time_ms']:.0f} ms)"
        )
        agent = DemoAgent()
        agent.bind(env)
        agent.reset()
        rows, total_reward, steps = [], 0.0, 0
        terminated = truncated = False
        while not (terminated or truncated):
            action = agent.act(obs, info)
            obs, reward, terminated, truncated, info = env.step(action)
            steps += 1
            total_reward += reward
            rows.append(
                (
                    steps,
                    _describe(action),
                    f"{reward:+.2f}",
                    f"{info.get('step_time_ms', 0):.0f}",
                    info.get("blocks", "-"),
                    info.get("last_action_error") or "-",
                )
            )
        print(table(["step", "action", "reward", "ms", "blocks", "error"], rows))
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        shot = out / "last.png"
        Image.fromarray(env.render()).save(shot)
        print(f"return {total_reward:+.2f} after {steps} steps; last screenshot: {shot}")
        if args.json:
            print_json_last(
                {
                    "env": args.env,
                    "steps": steps,
                    "return": total_reward,
                    "terminated": terminated,
                    "truncated": truncated,
                    "screenshot": str(shot),
                    "create_s": create_s,
                }
            )
    finally:
        env.close()
    return 0


def _run_task(args: argparse.Namespace) -> int:
    from scratch_gym.cli.eval import agent_kwargs
    from scratch_gym.runner.single import run_task
    from scratch_gym.runner.status import exit_code

    agent = args.agent if args.agent not in (None, "demo") else "oracle"
    args.agent = agent
    kwargs = agent_kwargs(args)
    kwargs.pop("seed", None)  # the episode seeds the agent (agent.seed(--seed))
    record = run_task(args.task, agent, args.mode, record_dir=args.record, seed=args.seed, **kwargs)
    code = exit_code(record)
    detail = record.get("ended_by") or record.get("error") or ""
    print(f"status: {record['status']}" + (f" ({detail})" if detail else "") + f"; exit {code}")
    if record.get("unsupported"):
        print(f"unsupported: {record['unsupported']}")
    if args.json:
        print_json_last(record)
    return code


def _describe(action: dict) -> str:
    parts = [str(action.get("action_type"))]
    for key in ("start", "end"):
        if key in action:
            x, y = action[key]
            parts.append(f"{key}=({x:.0f},{y:.0f})")
    return " ".join(parts)
