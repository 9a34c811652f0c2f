"""Recording oracle demonstrations of a task suite as a Minari dataset (``scratch-gym demos``).

```python
from scratch_gym.demos import collect
report = collect(tasks, "primitive", "demos/", obs_size=(320, 180), workers=2)
# MINARI_DATASETS_PATH=demos/ python -c "import minari; minari.load_dataset(report.dataset_id)"
```

Episodes run on the runner's workers (processes, retries of infrastructure errors) and are staged
one file pair each (:mod:`scratch_gym.demos.record`); ``resume`` skips staged episodes. The
dataset is then built from every kept episode (successful ones; failures too with
``keep_failures``) under ``<out>/scratch-gym/<suite>-<mode>-v0`` (``<out>`` is a Minari datasets
root: set ``MINARI_DATASETS_PATH`` to it to load the dataset by id).
"""

from __future__ import annotations

import json
import os
import shutil
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from scratch_gym.demos.format import DEFAULT_OBS_SIZE, DEMO_MODES, make_demo_env
from scratch_gym.demos.record import Capture, load_episode, save_episode, save_record
from scratch_gym.progress import progress_bar
from scratch_gym.records.status import DONE, INFRASTRUCTURE_ERROR, SUCCESS
from scratch_gym.runner.jobs import AgentSpec, Job, make_jobs
from scratch_gym.runner.worker import job_record
from scratch_gym.suites import TaskSuite

NAMESPACE = "scratch-gym"
STAGING = ".episodes"


class DemoResumeError(RuntimeError):
    """The output folder already holds staged episodes and ``resume`` was not asked for, or they
    were recorded with other settings."""


@dataclass(frozen=True)
class DemoSettings:
    """What every episode of one dataset shares (picklable: worker processes rebuild from it)."""

    mode: str
    obs_size: tuple[int, int] = DEFAULT_OBS_SIZE
    reward_mode: str = "sparse"
    staging: str = ""
    keep_failures: bool = False

    def fingerprint(self) -> dict[str, Any]:
        return {"mode": self.mode, "obs_size": list(self.obs_size), "reward": self.reward_mode}


@dataclass
class DemoReport:
    dataset_id: str
    root: str
    records: list[dict[str, Any]]
    kept: int
    steps: int
    new_episodes: int
    wall_s: float
    size_bytes: int
    data_bytes: int
    episode_steps: list[int] = field(default_factory=list)

    def figures(self) -> dict[str, Any]:
        """The run's figures (the ``--json`` line and the benchmark's)."""
        per_min = (
            60 * self.new_episodes / self.wall_s if self.wall_s > 0 and self.new_episodes else None
        )
        return {
            "dataset_id": self.dataset_id,
            "root": self.root,
            "episodes": self.kept,
            "steps": self.steps,
            "episode_steps": self.episode_steps,
            "recorded": len(self.records),
            "success": sum(r.get("status") == SUCCESS for r in self.records),
            "new_episodes": self.new_episodes,
            "wall_s": round(self.wall_s, 2),
            "episodes_per_minute": round(per_min, 3) if per_min else None,
            "dataset_mb": round(self.size_bytes / 1e6, 3),
            "episode_data_mb": round(self.data_bytes / 1e6, 3),
            "mb_per_episode": round(self.data_bytes / 1e6 / self.kept, 3) if self.kept else None,
            "kb_per_step": round(self.data_bytes / 1e3 / self.steps, 2) if self.steps else None,
        }


def episode_name(job: Job) -> str:
    return f"{job.task}__run{job.run}"


class DemoWorker:
    """Runs oracle episodes on a capturing environment and stages them (see ``run_jobs``)."""

    def __init__(self, settings: DemoSettings) -> None:
        self.settings = settings
        self.env: Capture | None = None
        self.agent: Any = None

    def make_env(self) -> Capture:
        s = self.settings
        return Capture(make_demo_env(s.mode, s.obs_size, s.reward_mode))

    def run(self, job: Job) -> dict[str, Any]:
        from scratch_gym.agents.factory import make_agent
        from scratch_gym.runner.episode import run_with_retries

        started = time.time()
        folder = Path(self.settings.staging)
        try:
            task = job.load_task()
            if self.env is None:
                self.env = self.make_env()
            if self.agent is None:
                self.agent = make_agent(job.agent.name, job.agent.mode, **dict(job.agent.kwargs))
            outcome, self.env = run_with_retries(
                self.make_env, self.env, self.agent, task, seed=job.seed
            )
            keep = outcome["status"] == SUCCESS or (
                self.settings.keep_failures and outcome["status"] in DONE
            )
            if keep:
                outcome["staged_bytes"] = save_episode(folder, episode_name(job), self.env.data)
            outcome["kept"] = keep
        except Exception as exc:  # noqa: BLE001 - e.g. the browser could not start at all
            outcome = {"status": INFRASTRUCTURE_ERROR, "error": f"{type(exc).__name__}: {exc}"}
        record = job_record(job, outcome, started)
        save_record(folder, episode_name(job), record)
        return record

    def close(self) -> None:
        if self.env is not None:
            self.env.close()
            self.env = None
        if self.agent is not None:
            self.agent.close()
            self.agent = None


def collect(
    tasks: Sequence[Any],
    mode: str,
    out: str | Path,
    *,
    obs_size: tuple[int, int] = DEFAULT_OBS_SIZE,
    suite: str = "tasks",
    runs: int = 1,
    workers: int = 1,
    seed: int = 0,
    reward_mode: str = "sparse",
    keep_failures: bool = False,
    lossless: bool = False,
    resume: bool = False,
    scratchworld: str | None = None,
    progress: bool = True,
) -> DemoReport:
    """Record the oracle on ``tasks`` in ``mode`` and build the Minari dataset under ``out``."""
    if mode not in DEMO_MODES:
        raise ValueError(f"unknown mode {mode!r}; allowed: {', '.join(DEMO_MODES)}")
    root = Path(out).expanduser().resolve()
    name = f"{suite}-{mode}"
    staging = root / STAGING / name
    settings = DemoSettings(mode, tuple(obs_size), reward_mode, str(staging), keep_failures)
    _check_staging(staging, settings, resume)
    task_suite = TaskSuite(scratchworld=scratchworld)
    jobs = make_jobs(AgentSpec("oracle", mode), list(tasks), runs, seed, None, task_suite)
    done = _staged_records(staging)
    todo = [j for j in jobs if done.get(episode_name(j), {}).get("status") not in DONE]
    bar = progress_bar(
        total=len(jobs), initial=len(jobs) - len(todo), desc=f"demos ({mode})", unit="ep",
        disable=not progress,
    )  # fmt: skip
    kept = sum(bool(r.get("kept")) for r in done.values())

    def on_record(record: dict[str, Any]) -> None:
        nonlocal kept
        kept += bool(record.get("kept"))
        bar.update(1)
        bar.set_postfix(kept=kept, last=f"{record['task']}:{record['status']}")

    from scratch_gym.runner.workers import run_jobs

    t0 = time.perf_counter()
    try:
        run_jobs(todo, settings, workers, on_record, worker_factory=DemoWorker)
    finally:
        bar.close()
    wall_s = time.perf_counter() - t0
    staged = _staged_records(staging)
    records = [staged[episode_name(j)] for j in jobs if episode_name(j) in staged]
    dataset_id = f"{NAMESPACE}/{name}-v0"
    steps, size, data = build_dataset(root, dataset_id, records, settings, lossless, suite)
    return DemoReport(
        dataset_id=dataset_id,
        root=str(root),
        records=records,
        kept=len(steps),
        steps=sum(steps),
        new_episodes=len(todo),
        wall_s=wall_s,
        size_bytes=size,
        data_bytes=data,
        episode_steps=steps,
    )


def build_dataset(
    root: Path,
    dataset_id: str,
    records: list[dict[str, Any]],
    settings: DemoSettings,
    lossless: bool = False,
    suite: str = "tasks",
) -> tuple[list[int], int, int]:
    """(Re)build the Minari dataset from the kept staged episodes; returns (steps per episode,
    the dataset's size in bytes, the size of its episode data: the HDF5 file). The rest is
    metadata, most of it Minari's spelling of the pixel space's bounds (~1.6 MB at 320x180)."""
    kept = [r for r in records if r.get("kept")]
    if not kept:
        outcomes = ", ".join(f"{r['task']}: {r['status']}" for r in records) or "no episodes"
        raise RuntimeError(
            f"no episode to put in the dataset: the oracle succeeded on none of them ({outcomes})"
        )
    staging = Path(settings.staging)
    previous = os.environ.get("MINARI_DATASETS_PATH")
    os.environ["MINARI_DATASETS_PATH"] = str(root)
    env = make_demo_env(settings.mode, settings.obs_size, settings.reward_mode)
    try:
        import minari

        target = root / dataset_id
        if target.exists():
            shutil.rmtree(target)
        buffers = [
            _buffer(i, r, staging / f"{r['task']}__run{r['run']}.npz", settings.mode)
            for i, r in enumerate(kept)
        ]
        steps = [len(b.rewards) for b in buffers]
        with warnings.catch_warnings():  # Minari asks for an author e-mail and eval env
            warnings.simplefilter("ignore", UserWarning)
            dataset = minari.create_dataset_from_buffers(
                dataset_id,
                buffers,
                env=env,
                algorithm_name=f"scratch-gym oracle ({settings.mode} mode)",
                author="scratch-gym demos",
                description=_description(settings, suite),
                requirements=["scratch-gym"],
                data_format="hdf5",
                jpeg_encoding=not lossless,
            )
        dataset.storage.update_metadata(
            {
                "scratch_gym": {
                    "suite": suite,
                    "mode": settings.mode,
                    "obs_size": list(settings.obs_size),
                    "reward_mode": settings.reward_mode,
                    "lossless": lossless,
                    "episodes": len(steps),
                    "episode_steps": steps,
                    "episode_tasks": [r["task"] for r in kept],
                    "not_kept": {r["task"]: r["status"] for r in records if not r.get("kept")},
                }
            }
        )
        size = sum(p.stat().st_size for p in target.rglob("*") if p.is_file())
        data = sum(p.stat().st_size for p in target.rglob("*.hdf5"))
    finally:
        env.close()
        if previous is None:
            os.environ.pop("MINARI_DATASETS_PATH", None)
        else:
            os.environ["MINARI_DATASETS_PATH"] = previous
    return steps, size, data


def _buffer(index: int, record: dict[str, Any], path: Path, mode: str) -> Any:
    from minari.data_collector import EpisodeBuffer

    pixels, doc = load_episode(path)
    actions: Any = doc["actions"]
    if mode == "primitive":
        actions = {
            "action_type": np.asarray([a["action_type"] for a in actions], dtype=np.int64),
            "start": np.asarray([a["start"] for a in actions], dtype=np.float32),
            "end": np.asarray([a["end"] for a in actions], dtype=np.float32),
            "scroll": np.asarray([a["scroll"] for a in actions], dtype=np.float32),
            "element": np.asarray([a["element"] for a in actions], dtype=np.int64),
            "end_element": np.asarray([a["end_element"] for a in actions], dtype=np.int64),
            "keys": [a["keys"] for a in actions],
            "text": [a["text"] for a in actions],
        }
    infos = {k: np.asarray([i[k] for i in doc["infos"]]) for k in doc["infos"][0]}
    return EpisodeBuffer(
        id=index,
        seed=int(record.get("seed", 0)),
        options={"task": record["task"]},
        observations={"pixels": pixels, **doc["texts"]},
        actions=actions,
        rewards=doc["rewards"],
        terminations=doc["terminations"],
        truncations=doc["truncations"],
        infos=infos,
    )


def _description(settings: DemoSettings, suite: str) -> str:
    w, h = settings.obs_size
    return (
        f"Oracle demonstrations of scratch-gym's {suite} suite in {settings.mode} mode, recorded "
        f"in the real Scratch 3 editor. Observations: pixels ({w}x{h} RGB) and the episode's "
        "text; actions: the environment's own action (primitive: the full Dict, viewport "
        "pixel coordinates; composite: JSON text). Format: scratch_gym.demos.format."
    )


def _staged_records(staging: Path) -> dict[str, dict[str, Any]]:
    out = {}
    for path in sorted(staging.glob("*.json")) if staging.is_dir() else []:
        if path.name == "settings.json" or path.name.endswith(".tmp.json"):
            continue
        try:
            out[path.stem] = json.loads(path.read_text())
        except json.JSONDecodeError:
            continue  # a record cut short: the episode is redone
    return out


def _check_staging(staging: Path, settings: DemoSettings, resume: bool) -> None:
    marker = staging / "settings.json"
    if _staged_records(staging):
        if not resume:
            raise DemoResumeError(
                f"{staging} already holds recorded episodes; pass --resume to continue them, or "
                "choose another --out (or delete that folder) to start over"
            )
        if marker.exists():
            before = json.loads(marker.read_text())
            if before != settings.fingerprint():
                raise DemoResumeError(
                    f"{staging} was recorded with {before}, not {settings.fingerprint()}; "
                    "use the same --obs-size and --reward-mode, or another --out"
                )
    staging.mkdir(parents=True, exist_ok=True)
    marker.write_text(json.dumps(settings.fingerprint()))


__all__ = ["DemoReport", "DemoResumeError", "DemoSettings", "DemoWorker", "collect"]
