"""``scratch-gym run``: run one real episode in the editor and show each step."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import gymnasium as gym
from PIL import Image

from scratch_gym.agents.demo import DemoAgent
from scratch_gym.cli.arguments import positive_int, project_file
from scratch_gym.cli.output import UsageError, print_json_last
from scratch_gym.records.text import table


def register(sub: argparse._SubParsersAction) -> None:
    from scratch_gym.agents.factory import AGENTS
    from scratch_gym.cli.eval import add_llm_arguments, add_observation_argument
    from scratch_gym.records.status import exit_codes_help

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
    p.add_argument(
        "--env", default="ScratchWorld-Primitive-v0", type=env_id, help="environment id (demo)"
    )
    p.add_argument(
        "--project",
        default=None,
        type=project_file,
        help="starting project of the demo episode (.sb3 or project.json)",
    )
    p.add_argument(
        "--max-steps",
        type=positive_int,
        default=None,
        help="step budget of the episode (default: the task's, or the environment's)",
    )
    p.add_argument("--out", default="runs/demo", help="folder for the last screenshot (demo)")
    p.add_argument("--json", action="store_true", help="print one JSON object last")
    add_llm_arguments(p)
    add_observation_argument(p)
    p.set_defaults(handler=run)


def env_id(text: str) -> str:
    """argparse type of ``--env``: a registered environment id (with a did-you-mean)."""
    import difflib

    from scratch_gym.envs.registration import ENV_IDS

    if text in ENV_IDS:
        return text
    close = difflib.get_close_matches(text, list(ENV_IDS), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise argparse.ArgumentTypeError(
        f"unknown environment id {text!r} (allowed: {', '.join(ENV_IDS)}{hint})"
    )


def run(args: argparse.Namespace) -> int:
    import scratch_gym  # noqa: F401  (registers the ids)

    if args.task is not None:
        if args.project is not None:
            raise UsageError("--project goes with the demo episode (a task has its own project)")
        return _run_task(args)
    if args.observation is not None:
        raise UsageError("--observation goes with --task (the demo episode uses --env)")
    if args.agent not in (None, "demo"):
        raise UsageError(
            f"--agent {args.agent} needs --task ID (the demo episode has no task; allowed "
            "without --task: demo)"
        )

    t0 = time.perf_counter()
    budget = {"max_steps": args.max_steps} if args.max_steps else {}
    env = gym.make(args.env, render_mode="rgb_array", project=args.project, **budget)
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
    from scratch_gym.cli.eval import agent_kwargs, warn_public_endpoint
    from scratch_gym.records.status import exit_code
    from scratch_gym.runner.jobs import EnvSpec
    from scratch_gym.runner.reports import failure_lines
    from scratch_gym.runner.single import run_task
    from scratch_gym.suites.tasks import TaskSuite
    from scratch_gym.tasks import load_task

    agent = args.agent if args.agent not in (None, "demo") else "oracle"
    args.agent = agent
    load_task(args.task)  # an unknown id is a usage error before the browser starts
    warn_public_endpoint([agent], args)
    kwargs = agent_kwargs(args)
    kwargs.pop("seed", None)  # the episode seeds the agent (agent.seed(agent_seed(--seed, task)))
    env = EnvSpec(reward_mode="per_step", max_steps=args.max_steps)
    try:
        TaskSuite(observation=args.observation).check_mode(args.mode)
    except ValueError as exc:
        raise UsageError(f"--observation: {exc}") from None
    record = run_task(
        args.task,
        agent,
        args.mode,
        record_dir=args.record,
        seed=args.seed,
        env=env,
        observation=args.observation,
        **kwargs,
    )
    code = exit_code(record)
    detail = record.get("ended_by") or record.get("error") or ""
    print(f"status: {record['status']}" + (f" ({detail})" if detail else "") + f"; exit {code}")
    if record.get("unsupported"):
        print(f"unsupported: {record['unsupported']}")
    for line in failure_lines([record]):
        if not line.startswith(("agent errors", "infrastructure errors")):  # said above
            print(line)
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
