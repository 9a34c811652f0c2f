"""ScratchWorld's own, unmodified ``task_runner.py`` against ``scratch-gym serve`` and the scripted
OpenAI-compatible endpoint: a few tasks, their result folders, a table, and a last-line JSON.

    PYTHONPATH=. python benchmarks/scratchworld_dropin.py --scratchworld ../shared/data/scratchworld \\
        --client-venv .scratchworld-client-venv [--tasks say_hello,...] [--parallel 2] \\
        [--wait-cap-s 0.05]

Each task runs in composite mode, then in primitive mode, ``--parallel`` at once (primitive mode in
batches whose tasks' initial projects differ: the endpoint tells primitive sessions apart by
their project, :func:`~scratch_gym.serve.dropin.project_batches`), on a
service started with ``--oracle-channel``. Measured: ``runs``, ``agents``, ``modes``,
``scripted_success_composite`` and ``scripted_success_primitive`` (their result.json's
``success``), ``session_open_s_p50`` (``POST /sessions`` answered, timed here on the same
service), ``action_ms_p50`` and ``action_ms_p50_primitive`` (the ``meta.duration_ms`` of every
action the runner executed, from their interaction logs), ``mismatches`` (composite turns whose
pseudocode was not the plan's), ``runner_wall_s`` and ``runner_wall_s_primitive``. Then their
other agents (``--agents``, default both): AWM in composite and primitive mode, Agent-S2 in
primitive mode (``scratchworld_dropin_agents.py``); ``agents`` lists every agent that ran,
``agent_success`` gives each one's success rate by mode and ``runner_wall_s_agents`` their runner
wall times. Their Single-Step Drag runner (``run_single_step_drag_benchmark.py --api-port``,
unmodified) runs on ``--drag-tasks`` (default: the first task of each connection type, and
T2_025), answered by the endpoint's drag oracle: ``drag_runs``, ``drag_success`` (their
result.json's ``success``), ``runner_wall_s_drag``. ``wait_cap_s``: their fixed waits capped (``--wait-cap-s``; None: as written). ``verdict_agreement``: over every run above,
the share where their recorded success equals scratch-gym's own verdict on the project their
runner exported through serve at the end of the run (:mod:`scratch_gym.serve.verdicts`);
``verdict_runs`` counts them and ``verdict_disagreements`` names the others. Their Visual
Perception benchmark: ``perception_items`` and ``perception_tags`` imported, and
``perception_score_equal``: scratch-gym's scores of a fixed answers file over every item equal
their ``results_visual_perception_benchmark.py``'s
(:func:`~scratch_gym.scratchworld.perception_scores.equality_check`). The result folders of
runs that failed by their verdict or whose verdicts disagree are kept in ``--keep-failed``
(default ``runs/scratchworld-dropin/failed-runs``); the rest of the working folders are removed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scratch_gym.scratchworld.perception_scores import equality_check  # noqa: E402
from scratch_gym.serve.dropin import (  # noqa: E402
    client_python,
    run_drag_runner,
    run_results,
    run_task_runner,
    run_task_runner_batched,
    task_category,
)
from scratch_gym.serve.scripted_endpoint import ScriptedEndpoint  # noqa: E402
from scratch_gym.serve.verdicts import Run, agreement, judge, keep_failed  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from scratchworld_dropin_agents import agent_success, run_agents, verdict_runs  # noqa: E402

# three short tasks of each category that both oracles solve
TASKS = ",".join(
    (
        "say_hello,hide_show_sprite,ask_and_echo",
        "party_costume,pong_starter_edge_bouncing_error,maze_starter_start_position_error",
        "make_it_fly_gravity_flap_mode_modify,mouse_trail_direction_increment_control_modify,"
        "mouse_trail_size_mode_toggle_modify",
        "celsius_to_fahrenheit,even_or_double,highest_power_of_2",
    )
)
# the first task of each connection type (parent, next, substack_2, substack_1, input), and a
# palette variable dropped into another sprite's block
DRAG_TASKS = "T1_001,T1_011,T2_001,T2_002,T2_016,T2_025"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_serve(checkout: Path, parallel: int):
    import uvicorn

    from scratch_gym.serve.app import create_app
    from scratch_gym.serve.config import ServeConfig

    config = ServeConfig(scratchworld=checkout, port=free_port(), parallel=parallel, max_sessions=parallel + 1, oracle_channel=True)  # fmt: skip
    server = uvicorn.Server(uvicorn.Config(create_app(config), host=config.host, port=config.port, log_level="warning"))  # fmt: skip
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("scratch-gym serve did not start")
        time.sleep(0.05)
    return server, thread, f"http://127.0.0.1:{config.port}"


def session_open_times(url: str, n: int = 5) -> list[float]:
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        sid = requests.post(f"{url}/sessions", timeout=20).json()["session_id"]
        out.append(time.perf_counter() - t0)
        requests.delete(f"{url}/sessions/{sid}", timeout=20)
    return out


def action_times(result: dict) -> list[float]:
    """The service's ``meta.duration_ms`` of each action the runner executed for one task."""
    log = (result.get("agent_interaction") or {}).get("interaction_log") or {}
    out = []
    for turn in log.get("interactions", []):
        meta = ((turn.get("result") or {}).get("meta")) or {}
        if (turn.get("action") or {}).get("api") not in ("done", "failed") and meta.get("duration_ms"):  # fmt: skip
            out.append(float(meta["duration_ms"]))
    return out


def success(rows: list[tuple], mode: str, agent: str = "scratch-agent") -> float | None:
    mine = [r[3] for r in rows if r[1] == mode and r[2] == agent]
    return sum(mine) / len(mine) if mine else None


def p50(values: list[float]) -> float | None:
    return round(statistics.median(values), 1) if values else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scratchworld", required=True, type=Path)
    parser.add_argument("--client-venv", required=True, type=Path)
    parser.add_argument("--tasks", default=TASKS)
    parser.add_argument(
        "--parallel", type=int, default=2, help="their runner's tasks at once, both modes"
    )
    parser.add_argument("--max-steps", type=int, default=150, help="their runner's --max_steps")
    parser.add_argument("--agents", default="awm,agent-s2", help="their agents run after scratch-agent")  # fmt: skip
    parser.add_argument("--drag-tasks", default=DRAG_TASKS, help="their Single-Step Drag tasks")
    parser.add_argument(
        "--wait-cap-s", type=float, default=None,
        help="cap their runners' fixed waits (time.sleep, about 2 s a turn) at this many seconds; "
        "default: their waits as written",
    )  # fmt: skip
    parser.add_argument(
        "--keep-failed",
        type=Path,
        default=ROOT / "runs" / "scratchworld-dropin" / "failed-runs",
        help="where the result folders of failed or disagreeing runs are kept",
    )
    args = parser.parse_args()
    checkout = args.scratchworld.resolve()
    python = client_python(args.client_venv)
    if python is None:
        sys.exit(f"no client venv at {args.client_venv}: run scripts/scratchworld_client_venv.sh {args.client_venv}")  # fmt: skip
    tasks = [t for t in args.tasks.split(",") if t]
    drag_tasks = [t for t in args.drag_tasks.split(",") if t]
    server, thread, url = start_serve(checkout, args.parallel)
    keep = Path(tempfile.mkdtemp(prefix="scratchworld-dropin-"))  # exported projects, judged last
    verdicts: list[Run] = []
    drag_rows: list[tuple] = []
    rows: list[tuple] = []
    actions_ms: dict[str, list[float]] = {"composite": [], "primitive": []}
    wall: dict[str, float] = {}
    summaries = []
    try:
        opens = session_open_times(url)
        with ScriptedEndpoint(checkout, serve_url=url) as endpoint:
            for mode, runner in (("composite", run_task_runner), ("primitive", run_task_runner_batched)):  # fmt: skip
                with tempfile.TemporaryDirectory(dir=keep) as tmp:
                    t0 = time.perf_counter()
                    run = runner(python, checkout, Path(tmp), url, endpoint.base_url, tasks, mode=mode, max_steps=args.max_steps, parallel=args.parallel, timeout=3600, wait_cap_s=args.wait_cap_s)  # fmt: skip
                    wall[mode] = time.perf_counter() - t0
                    for task in tasks:
                        result = run.result(task, task_category(checkout, task)) or {}
                        actions_ms[mode] += action_times(result)
                        rows.append((task, mode, "scratch-agent", result.get("success") is True, (result.get("agent_interaction") or {}).get("steps_used")))  # fmt: skip
                    summaries.append(run_results(python, checkout, run.result_dir).returncode == 0)
                    verdicts += verdict_runs(run, checkout, tasks, f"scratch-agent/{mode}", keep)
            if drag_tasks:
                with tempfile.TemporaryDirectory(dir=keep) as tmp:
                    t0 = time.perf_counter()
                    drag = run_drag_runner(python, checkout, Path(tmp), urlparse(url).port or 0, endpoint.base_url, drag_tasks, timeout=3600, wait_cap_s=args.wait_cap_s)  # fmt: skip
                    wall["drag"] = time.perf_counter() - t0
                    for task in drag_tasks:
                        result = drag.result(task) or {}
                        ok = result.get("success") is True
                        drag_rows.append((task, ok, (result.get("action") or {}).get("args")))
                        sb3 = drag.result_dir / task / "1" / str(result.get("exported_file"))
                        kept = keep / f"drag-{task}.sb3"
                        if result.get("exported_file") and sb3.is_file():
                            kept.write_bytes(sb3.read_bytes())
                        folder = keep / "runs" / f"drag-{task}"
                        if (drag.result_dir / task).is_dir():
                            shutil.copytree(drag.result_dir / task, folder, dirs_exist_ok=True)
                        verdicts.append(Run("drag", task, "drag", ok, kept if kept.is_file() else None, folder=folder if folder.is_dir() else None))  # fmt: skip
            agents = [a for a in args.agents.split(",") if a]
            more, wall_agents, read, judged = run_agents(python, checkout, url, endpoint.base_url, tasks, agents, args.max_steps, args.parallel, keep, args.wait_cap_s)  # fmt: skip
            rows += more
            summaries += read
            verdicts += judged
            mismatches = endpoint.mismatches
    finally:
        server.should_exit = True
        thread.join(60)
    try:
        judge(checkout, verdicts)
        failed = keep_failed(verdicts, args.keep_failed)
        # their Visual Perception items: imported, answered by the fixed probe replies, scored
        # by scratch-gym and by their results script (run with their client's python)
        perception = equality_check(checkout, keep / "perception-answers", str(python))
    finally:
        shutil.rmtree(keep, ignore_errors=True)
    print(f"{'task':28} {'mode':10} {'agent':14} {'success':8} steps")
    for task, mode, agent, ok, steps in rows:
        print(f"{task:28} {mode:10} {agent:14} {str(ok):8} {steps}")
    for task, ok, drag_args in drag_rows:
        print(f"{task:28} {'drag':10} {'drag runner':14} {str(ok):8} {drag_args}")
    disagree = [f"{r.label} {r.task}: theirs {r.theirs}, ours {r.ours}" for r in verdicts if not r.agrees]  # fmt: skip
    print(f"verdicts: {sum(r.agrees for r in verdicts)}/{len(verdicts)} agree" + "".join(f"\n  {d}" for d in disagree))  # fmt: skip
    if failed:
        print(f"result folders of failed or disagreeing runs: {args.keep_failed}")
    print(f"their results.py: {'reads the folders' if all(summaries) else 'failed'}; runner wall " + ", ".join(f"{m} {w:.1f} s" for m, w in wall.items()))  # fmt: skip
    out = {
        "runs": len(rows),
        "agents": list(dict.fromkeys(r[2] for r in rows)),
        "agent_success": agent_success(rows),
        "modes": ["composite", "primitive"],
        "parallel": args.parallel,
        "wait_cap_s": args.wait_cap_s,  # None: their waits as written
        "scripted_success_composite": success(rows, "composite"),
        "scripted_success_primitive": success(rows, "primitive"),
        "verdict_agreement": agreement(verdicts),
        "verdict_runs": len(verdicts),
        "verdict_disagreements": disagree,
        "drag_runs": len(drag_rows),
        "drag_success": round(sum(r[1] for r in drag_rows) / len(drag_rows), 3)
        if drag_rows
        else None,  # fmt: skip
        "perception_items": perception["perception_items"],
        "perception_tags": perception["perception_tags"],
        "perception_score_equal": perception["perception_score_equal"],
        "perception_differences": perception["differences"],
        "mismatches": mismatches,
        "session_open_s_p50": round(statistics.median(opens), 3),
        "action_ms_p50": p50(actions_ms["composite"]),
        "action_ms_p50_primitive": p50(actions_ms["primitive"]),
        "runner_wall_s": round(wall["composite"], 1),
        "runner_wall_s_primitive": round(wall["primitive"], 1),
        "runner_wall_s_agents": wall_agents,
        "runner_wall_s_drag": round(wall["drag"], 1) if "drag" in wall else None,
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
