"""Train a drag policy with PPO (stable-baselines3) in the real editor, from pixels.

A baseline of what RL from pixels does at real-editor speed (about one drag per second); for a
policy that learns, see ``train_drag_policy.py`` (the fast drag path). The policy sees the
editor as a small screenshot plus the instruction's token ids and outputs one continuous drag
(Box(4) in [-1, 1]); tasks are generated without end (random programs, a random intended connection, a random
view), with a curriculum (near targets first) and the optional shaped reward (minus the mean
normalised distance of the grab point to the start region and of the drop to the end region). Saves the model, a learning-curve plot and a JSON
of figures; evaluates the trained policy against a random policy on held-out generated tasks and
on the stored benchmark tasks (Pass@1, start and end component accuracy). Needs the ``rl`` extra.

    python examples/train_drag_ppo.py --timesteps 20000 --envs 2 --out runs/ppo_drag

Time: about 6.5 hours at the defaults; ``--timesteps 2048`` takes about 40 minutes.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import gymnasium as gym
import numpy as np
from stable_baselines3 import PPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv
from tqdm import tqdm

import scratch_gym  # noqa: F401
from scratch_gym.single_drag.training.curriculum import NearFirst

ENV_ID = "ScratchWorld-SingleDragPixels-v0"
TIME_ESTIMATE = (
    "Time: about 6.5 hours at the defaults (about one drag a second over 2 environments: a "
    "2,048-episode run took 39 minutes), then the evaluation (2 x 160 one-drag episodes)."
)
MONITOR_KEYS = ("success", "start_correct", "end_correct")


def make_train_env(rank: int, log_dir: Path, ramp: int):
    def thunk():
        env = gym.make(ENV_ID, tasks="generated", shaped_reward=True)
        env = NearFirst(env, ramp_episodes=ramp)
        return Monitor(env, str(log_dir / f"monitor_{rank}"), info_keywords=MONITOR_KEYS)

    return thunk


class Progress(BaseCallback):
    """A tqdm bar over training timesteps (SB3's own bar needs ``rich``); training stops early,
    and the model is still saved and evaluated, once ``stop_file`` exists."""

    def __init__(self, total: int, stop_file: Path | None = None) -> None:
        super().__init__()
        self.bar = tqdm(total=total, desc="PPO", unit="step")
        self.stop_file = stop_file

    def _on_step(self) -> bool:
        self.bar.update(self.training_env.num_envs)
        return self.stop_file is None or not self.stop_file.exists()

    def _on_training_end(self) -> None:
        self.bar.close()


def evaluate(policy, env: gym.Env, episodes: int, seed: int, desc: str) -> dict[str, float]:
    """Success, start- and end-component accuracy and median pixel errors of
    ``policy(obs) -> action`` over ``episodes`` tasks (seeds ``seed``, ``seed + 1``, ...)."""
    wins = starts = ends = 0
    start_err: list[float] = []
    end_err: list[float] = []
    for i in tqdm(range(episodes), desc=desc, unit="episode"):
        obs, _ = env.reset(seed=seed + i)
        _, _, _, _, info = env.step(policy(obs))
        wins += bool(info["success"])
        starts += bool(info["start_correct"])
        ends += bool(info["end_correct"])
        start_err.append(info["start_error_px"])
        end_err.append(info["end_error_px"])
    n = max(episodes, 1)
    return {
        "success": wins / n,
        "start_acc": starts / n,
        "end_acc": ends / n,
        "start_error_px_median": float(np.median(start_err)) if start_err else None,
        "end_error_px_median": float(np.median(end_err)) if end_err else None,
        "episodes": episodes,
    }


def training_log(log_dir: Path) -> dict[str, np.ndarray]:
    """Every training episode from the Monitor logs, in time order: reward and the info flags."""
    rows: list[tuple[float, float, ...]] = []
    for path in log_dir.glob("monitor_*.monitor.csv"):
        lines = path.read_text().splitlines()
        header = lines[1].split(",")
        for line in lines[2:]:
            cells = dict(zip(header, line.split(","), strict=True))
            flags = [float(cells[k] == "True") for k in MONITOR_KEYS]
            rows.append((float(cells["t"]), float(cells["r"]), *flags))
    rows.sort()
    table = np.array(rows, dtype=float).reshape(-1, 2 + len(MONITOR_KEYS))
    return {"reward": table[:, 1]} | {k: table[:, 2 + i] for i, k in enumerate(MONITOR_KEYS)}


def moving_average(values: np.ndarray, window: int) -> np.ndarray:
    if len(values) < window:
        return np.array([values.mean()]) if len(values) else np.array([])
    return np.convolve(values, np.ones(window) / window, mode="valid")


def learning_curve(log: dict[str, np.ndarray], out_png: Path) -> dict[str, list[float]]:
    """Plot success, start accuracy and shaped reward (moving averages) over training episodes."""
    window = max(1, len(log["reward"]) // 20)
    curves = {k: moving_average(v, window) for k, v in log.items()}
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (top, bottom) = plt.subplots(2, 1, figsize=(6.5, 5), sharex=True)
    x = np.arange(len(curves["success"])) + window
    top.plot(x, curves["success"], label="success")
    top.plot(x, curves["start_correct"], label="grabbed the intended block")
    top.plot(x, curves["end_correct"], label="dropped in the end region")
    top.set_ylabel(f"rate (moving avg of {window})")
    top.set_ylim(0, 1)
    top.legend(fontsize=8)
    top.set_title("PPO on generated single-drag tasks (curriculum: near targets first)")
    bottom.plot(x, curves["reward"], color="tab:red")
    bottom.set_ylabel("shaped reward")
    bottom.set_xlabel("training episode (one drag each)")
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)
    plt.close(fig)
    return {k: list(map(float, v)) for k, v in curves.items()}


def window_means(log: dict[str, np.ndarray], windows: int = 8) -> list[dict[str, float]]:
    """The training log cut into equal windows: episodes and mean of each measure per window."""
    n = len(log["reward"])
    out = []
    for i in range(windows):
        lo, hi = n * i // windows, n * (i + 1) // windows
        if hi > lo:
            out.append(
                {"episodes": f"{lo + 1}-{hi}"} | {k: float(v[lo:hi].mean()) for k, v in log.items()}
            )
    return out


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(
        description=__doc__.splitlines()[0] + " " + TIME_ESTIMATE,
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    ap.add_argument("--timesteps", type=int, default=20_000, help="training drags (episodes)")
    ap.add_argument("--envs", type=int, default=2, help="environments in parallel (processes)")
    ap.add_argument("--n-steps", type=int, default=128, help="rollout length per environment")
    ap.add_argument("--ramp", type=int, default=2000, help="episodes until the full range")
    ap.add_argument("--eval-generated", type=int, default=100, help="held-out generated tasks")
    ap.add_argument("--eval-stored", type=int, default=60, help="stored benchmark tasks (0: none)")
    ap.add_argument("--seed", type=int, default=0, help="seed of training and evaluation")
    ap.add_argument("--out", default="runs/ppo_drag", help="folder for the model, plot and JSON")
    ap.add_argument("--stop-file", type=Path, help="stop training early once this file exists")
    ap.add_argument(
        "--evaluate-only", action="store_true", help="evaluate OUT/model.zip again, no training"
    )
    args = ap.parse_args(argv)

    out = Path(args.out)
    log_dir = out / "logs"
    if args.evaluate_only:
        model = PPO.load(out / "model.zip")  # keeps its num_timesteps
    else:
        model = train(args, log_dir)
        model.save(out / "model")
    log = training_log(log_dir)
    curve = learning_curve(log, out / "learning_curve.png")
    results: dict = {"timesteps": int(model.num_timesteps), "envs": args.envs}
    results |= evaluate_against_random(model, args)
    results["final_training_success"] = curve["success"][-1] if curve["success"] else None
    results["training_windows"] = window_means(log)
    (out / "results.json").write_text(json.dumps(results, indent=2))
    print(json.dumps(results))
    return results


def train(args: argparse.Namespace, log_dir: Path) -> PPO:
    log_dir.mkdir(parents=True, exist_ok=True)
    thunks = [make_train_env(i, log_dir, args.ramp) for i in range(args.envs)]
    vec = SubprocVecEnv(thunks) if args.envs > 1 else DummyVecEnv(thunks)
    vec.seed(args.seed)
    model = PPO(
        "MultiInputPolicy",  # pixels (CNN) + instruction token ids
        vec,
        n_steps=args.n_steps,
        batch_size=min(64, args.n_steps * args.envs),
        n_epochs=4,
        learning_rate=3e-4,
        seed=args.seed,
        verbose=0,
    )
    model.learn(total_timesteps=args.timesteps, callback=Progress(args.timesteps, args.stop_file))
    vec.close()
    return model


def evaluate_against_random(model: PPO, args: argparse.Namespace) -> dict[str, dict]:
    """The trained policy and a uniform random one on held-out generated and stored tasks."""
    trained = lambda obs: model.predict(obs, deterministic=True)[0]  # noqa: E731
    rng = np.random.default_rng(args.seed)
    rand = lambda obs: rng.uniform(-1, 1, size=4).astype(np.float32)  # noqa: E731
    results = {}
    held_out = gym.make(ENV_ID, tasks="generated")
    try:
        # held-out: seeds far from the training generator's
        n = args.eval_generated
        results["generated_trained"] = evaluate(trained, held_out, n, 10**6, "eval trained")
        results["generated_random"] = evaluate(rand, held_out, n, 10**6, "eval random")
    finally:
        held_out.close()
    if args.eval_stored:
        stored = gym.make(ENV_ID)
        try:
            n = args.eval_stored
            results["stored_trained"] = evaluate(trained, stored, n, 0, "stored trained")
            results["stored_random"] = evaluate(rand, stored, n, 0, "stored random")
        finally:
            stored.close()
    return results


if __name__ == "__main__":
    main()
