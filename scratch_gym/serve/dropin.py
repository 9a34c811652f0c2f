"""Runs ScratchWorld's own, unmodified ``task_runner.py`` and ``results.py`` (from their checkout,
with their client's virtualenv, see ``scripts/scratchworld_client_venv.sh``) against a
``scratch-gym serve`` URL and an OpenAI-compatible endpoint, in a working folder of its own.

Their runner reads ``agent-config.json`` and ``.env`` from its working folder and writes
``result_<model>_<mode>_<agent>/<type>/<task>/result.json`` there; it reads the task list from
``--tasks_dir``. :func:`run_task_runner` lays out that folder (a task list, links to the
checkout's task folders, their agent-config.json format pointing at the endpoint, for Agent-S2 an
empty ``kb_scratch/linux/`` knowledge base) and runs it. Agent-S2 (their ``Agent-S/``, which their
README installs with ``pip install -e``) is imported from the checkout through ``PYTHONPATH``.

Their runners sleep a fixed time after each step (about 2 s a turn). ``wait_cap_s`` caps those
waits (``client_waits/sitecustomize.py`` on the client's path; their code is not touched): the
tests run them so, and one test keeps the real clock.
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CATEGORIES = ("create", "debug", "extend", "compute")
VENV_SCRIPT = "scripts/scratchworld_client_venv.sh"
CLIENT_WAITS = Path(__file__).resolve().parent / "client_waits"  # sitecustomize capping sleeps
DOCUMENTS = {
    "composite_api_catalog": "composite_api_catalog.txt",
    "blocks_catalog": "blocks_catalog.txt",
    "primitive_actions_catalog": "primitive_actions_catalog.txt",
}


def client_python(venv: str | Path) -> Path | None:
    """The client venv's python, when the venv holds their runner's imports' packages."""
    python = Path(venv).absolute() / "bin" / "python"
    return python if python.is_file() else None


def task_category(checkout: Path, task: str) -> str:
    for category in CATEGORIES:
        if (checkout / "tasks" / category / f"{task}.json").is_file():
            return category
    raise FileNotFoundError(f"no task {task!r} under {checkout / 'tasks'}")


def initial_project(checkout: Path, task: str) -> str:
    """The ``initial_project`` that the task's JSON names (the project their runner loads)."""
    path = checkout / "tasks" / task_category(checkout, task) / f"{task}.json"
    return str(json.loads(path.read_text(encoding="utf-8")).get("initial_project", ""))


def project_batches(projects: dict[str, str]) -> list[list[str]]:
    """The tasks (``task -> initial project``, in order) in as few batches as their commonest
    project needs, of sizes as even as that allows, no two tasks of a batch on the same project, each batch in the given order.
    The primitive scripted endpoint claims a conversation's session by its project
    (:mod:`scratch_gym.serve.scripted_primitive`): one runner call per batch, however many
    tasks at once, never holds two unclaimed sessions on the same project."""
    counts: dict[str, int] = {}
    for project in projects.values():
        counts[project] = counts.get(project, 0) + 1
    batches: list[list[str]] = [[] for _ in range(max(counts.values(), default=0))]
    held: list[set[str]] = [set() for _ in batches]
    for task, project in projects.items():  # the shortest batch without the project
        i = min((i for i, h in enumerate(held) if project not in h), key=lambda i: len(batches[i]))
        batches[i].append(task)
        held[i].add(project)
    return batches


def agent_config(llm_base_url: str) -> dict[str, Any]:
    """Their agent-config.json format (agent-config.json.example), pointed at ``llm_base_url``."""
    return {
        "scratch-agent": {"documents": dict(DOCUMENTS)},
        "awm": {
            "awm_config": {
                "use_workflow_memory": True,
                "use_thinking": True,
                "use_memory": True,
                "use_history": True,
            },
            "documents": dict(DOCUMENTS),
        },
        "agent-s2": {
            "embedding_engine": {
                "embedding_model": "scripted-embedding",
                "base_url": llm_base_url,
                "api_key": "scripted",
            },
            "grounding_engine": {
                "engine_type": "openai",
                "model": "scripted-oracle",
                "base_url": llm_base_url,
                "api_key": "scripted",
                "grounding_width": 1280,
                "grounding_height": 720,
            },
            "documents": {
                **DOCUMENTS,
                "primitive_actions_catalog": "primitive_actions_catalog_agents.txt",
            },
        },
    }


def client_env(
    llm_base_url: str, python_path: list[Path] | None = None, wait_cap_s: float | None = None
) -> dict[str, str]:
    """The environment their client runs in: this process's, without its ``PYTHONPATH`` (the
    client venv imports nothing of ours), pointed at ``llm_base_url``, with ``python_path``
    importable and, with ``wait_cap_s``, every ``time.sleep`` waiting at most that long."""
    if wait_cap_s is not None and not wait_cap_s >= 0:
        raise ValueError(f"wait_cap_s must be a number of seconds >= 0, got {wait_cap_s!r}")
    env = {
        **os.environ,
        "OPENAI_API_KEY": "scripted",
        "LLM_BASE_URL": llm_base_url,
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    env.pop("PYTHONPATH", None)
    env.pop("SCRATCH_GYM_WAIT_CAP_S", None)
    paths = [str(p) for p in python_path or []]
    if wait_cap_s is not None:
        paths.insert(0, str(CLIENT_WAITS))
        env["SCRATCH_GYM_WAIT_CAP_S"] = str(wait_cap_s)
    if paths:
        env["PYTHONPATH"] = os.pathsep.join(paths)
    return env


@dataclass
class RunnerResult:
    returncode: int
    output: str
    result_dir: Path  # result_<model>_<mode>_<agent>

    def result(self, task: str, category: str) -> dict[str, Any] | None:
        path = self.result_dir / category / task / "result.json"
        return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def run_task_runner(
    python: Path,
    checkout: Path,
    workdir: Path,
    api_url: str,
    llm_base_url: str,
    tasks: list[str],
    mode: str = "composite",
    agent: str = "scratch-agent",
    model: str = "scripted-oracle",
    max_steps: int = 60,
    parallel: int = 1,
    timeout: float = 900,
    tasks_root: Path | None = None,
    wait_cap_s: float | None = None,
) -> RunnerResult:
    """Their ``task_runner.py --api_url api_url`` on ``tasks`` in ``workdir``; the task JSONs
    are ``tasks_root``'s (a folder written by ``tasks export-scratchworld``), else the
    checkout's. ``wait_cap_s``: see :func:`client_env` (None: their waits as written)."""
    source = tasks_root or checkout
    workdir.mkdir(parents=True, exist_ok=True)
    tasks_dir = workdir / "tasks"
    tasks_dir.mkdir(exist_ok=True)
    listing: dict[str, list[str]] = {}
    for task in tasks:
        listing.setdefault(task_category(source, task), []).append(f"{task}.json")
    (tasks_dir / "dropin.json").write_text(json.dumps(listing, indent=2), encoding="utf-8")
    for category in CATEGORIES:
        link = tasks_dir / category
        if not link.exists():
            link.symlink_to(source / "tasks" / category)
    (workdir / "agent-config.json").write_text(json.dumps(agent_config(llm_base_url), indent=2))
    # Agent-S2: their README installs Agent-S/ with `pip install -e`; the checkout's copy is
    # imported instead, so the client venv stays independent of any checkout
    agent_s = [checkout / "Agent-S"] if agent == "agent-s2" else []
    env = {**client_env(llm_base_url, agent_s, wait_cap_s), "MAX_SESSIONS": str(parallel)}
    if agent == "agent-s2":
        # Agent-S2's knowledge base: the runner copies kb_scratch/ to kb_scratch_<model>/, whose
        # linux/ folder Agent-S2 writes its memory files into
        (workdir / "kb_scratch" / "linux").mkdir(parents=True, exist_ok=True)
    cmd = [
        str(python),
        str(checkout / "task_runner.py"),
        "--task_list",
        "dropin.json",
        "--tasks_dir",
        str(tasks_dir),
        "--mode",
        mode,
        "--model",
        model,
        "--agent",
        agent,
        "--no_recording",
        "--max_steps",
        str(max_steps),
        "--parallel",
        str(parallel),
        "--env-file",
        str(workdir / ".env"),
        "--api_url",
        api_url,
    ]
    proc = subprocess.run(
        cmd, cwd=workdir, env=env, capture_output=True, text=True, timeout=timeout
    )
    safe = model.replace("/", "_").replace("\\", "_").replace("-", "_").replace(" ", "_")
    return RunnerResult(
        proc.returncode, proc.stdout + proc.stderr, workdir / f"result_{safe}_{mode}_{agent}"
    )


def run_task_runner_batched(
    python: Path,
    checkout: Path,
    workdir: Path,
    api_url: str,
    llm_base_url: str,
    tasks: list[str],
    **kwargs: Any,
) -> RunnerResult:
    """:func:`run_task_runner` once per :func:`project_batches` batch, in the same working
    folder (one result folder, and an agent's memory carries over from batch to batch as it does
    from task to task): primitive mode at ``parallel`` > 1 with tasks that share a project."""
    source = kwargs.get("tasks_root") or checkout
    batches = project_batches({t: initial_project(source, t) for t in tasks}) or [[]]
    runs = [run_task_runner(python, checkout, workdir, api_url, llm_base_url, b, **kwargs) for b in batches]  # fmt: skip
    code = next((r.returncode for r in runs if r.returncode), 0)
    return RunnerResult(code, "".join(r.output for r in runs), runs[-1].result_dir)


def run_results(python: Path, checkout: Path, result_dir: Path) -> subprocess.CompletedProcess:
    """Their ``results.py RESULT_DIR``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(
        [str(python), str(checkout / "results.py"), str(result_dir)],
        cwd=result_dir.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


DRAG_RUNNER = "run_single_step_drag_benchmark.py"
DRAG_DIR = "single_step_drag_benchmark"


@dataclass
class DragRunnerResult:
    returncode: int
    output: str
    result_dir: Path  # result_single_step_drag_benchmark_<model>

    def result(self, task: str, run: int = 1) -> dict[str, Any] | None:
        path = self.result_dir / task / str(run) / "result.json"
        return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def drag_workdir(checkout: Path, workdir: Path, tasks: list[str]) -> Path:
    """A folder their drag runner runs in unmodified: its script linked from the checkout, a
    ``single_step_drag_benchmark/`` of its own (the runner writes its backend log there, and the
    checkout may be read-only) with links to the checkout's modules and a ``tasks/`` of links to
    the chosen task files, and ``scratch-bench-api`` linked (the server it tries to start)."""
    checkout = checkout.absolute()
    bench = workdir / DRAG_DIR
    (bench / "tasks").mkdir(parents=True, exist_ok=True)
    links = {
        workdir / DRAG_RUNNER: checkout / DRAG_RUNNER,
        workdir / "scratch-bench-api": checkout / "scratch-bench-api",
        **{bench / p.name: p for p in (checkout / DRAG_DIR).glob("*.py")},
        **{
            bench / "tasks" / f"{t}.json": checkout / DRAG_DIR / "tasks" / f"{t}.json"
            for t in tasks
        },  # fmt: skip
    }
    for link, target in links.items():
        if not target.exists():
            raise FileNotFoundError(f"no {target} in the checkout")
        if not link.is_symlink():
            link.symlink_to(target)
    return workdir / DRAG_RUNNER


def run_drag_runner(
    python: Path,
    checkout: Path,
    workdir: Path,
    api_port: int,
    llm_base_url: str,
    tasks: list[str],
    model: str = "scripted-oracle",
    timeout: float = 900,
    wait_cap_s: float | None = None,
) -> DragRunnerResult:
    """Their ``run_single_step_drag_benchmark.py --api-port api_port`` on ``tasks`` (ids such as
    ``T1_001``) in ``workdir``. The runner starts its own API server on that port first; a
    ``scratch-gym serve`` already listening there is the one it finds and uses.
    ``wait_cap_s``: see :func:`client_env` (None: their waits as written)."""
    workdir.mkdir(parents=True, exist_ok=True)
    script = drag_workdir(checkout, workdir, tasks)
    env = client_env(llm_base_url, wait_cap_s=wait_cap_s)
    cmd = [str(python), str(script), "--model", model, "--api-port", str(api_port),
           "--env-file", str(workdir / ".env")]  # fmt: skip
    proc = subprocess.run(
        cmd, cwd=workdir, env=env, capture_output=True, text=True, timeout=timeout
    )
    safe = model.replace("/", "_").replace("\\", "_").replace("-", "_")
    return DragRunnerResult(
        proc.returncode,
        proc.stdout + proc.stderr,
        workdir / f"result_single_step_drag_benchmark_{safe}",
    )
