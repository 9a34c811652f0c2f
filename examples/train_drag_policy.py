"""Train a drag policy on the fast drag path, then evaluate it in the real editor.

    python examples/train_drag_policy.py --minutes 60 --out runs/drag [--workers 2]

1. Pools: captures ``--train-tasks`` generated tasks (seed ``--seed``) and ``--heldout-tasks``
   held-out ones (seed ``--seed + 1``) into OUT/pool-train and OUT/pool-heldout, or reuses them
   (``--train-pool``/``--heldout-pool`` point at pools built elsewhere). Building is resumable.
2. Training, on CPU within ``--minutes``: behaviour cloning from the oracle's drags (the start
   region's anchor and the drop that aligns the intended connections), then policy-gradient
   fine-tuning (REINFORCE with a mean baseline) on the fast vector env for the last
   ``--rl-share`` of the time. Why this order: a uniformly random drag succeeds about once in
   20,000 tries, so RL from scratch sees no reward; cloning puts the policy where rewards are,
   and the fine-tuning then optimises the real objective (the connection forms) rather than
   closeness to one demonstrated point. Every ``--eval-every`` seconds the fast path's Pass@1 on
   both pools goes into the learning curve (OUT/curve.png, OUT/curve.json).
3. Evaluation in the real editor, through ``ScratchWorld-SingleDragElements-v0``: the stored
   tasks and the held-out tasks, in the settings baseline, gt_start and knowledge; beside it the
   fast path's estimate, the random policy, the scripted heuristic (instruction and element list
   only) and the oracle.

The model is written to OUT/policy.pt (``--policy P`` evaluates a saved one without training;
``--skip-real`` leaves out the real editor, ``--real-splits`` runs only some of the task sets
there); the last line is one JSON object of figures.
Needs the ``rl`` extra (torch, matplotlib).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import torch
from torch.nn import functional as F
from tqdm import tqdm

from scratch_gym.cli.output import table
from scratch_gym.single_drag.drag_model import simulate
from scratch_gym.single_drag.heuristic import HeuristicDragPolicy
from scratch_gym.single_drag.instructions import SETTINGS
from scratch_gym.single_drag.policy import (
    OFFSET_PX,
    SCREEN,
    DragPolicy,
    DragPolicyNet,
    bc_targets,
    points,
    to_tensors,
)
from scratch_gym.single_drag.rl_spaces import GRID, grid_cells, grid_points
from scratch_gym.single_drag.task_pool import Pool, build_pool, load_pool


def observations(pool: Pool, idx: np.ndarray, setting: str | np.ndarray) -> dict[str, np.ndarray]:
    if isinstance(setting, str):
        ins = pool.instructions[setting][idx]
    else:
        stacked = np.stack([pool.instructions[s] for s in SETTINGS])
        ins = stacked[setting, idx]
    return {"instruction": ins, **{k: v[idx] for k, v in pool.elements.items()}}


def fast_pass1(pool: Pool, act, setting: str, idx: np.ndarray | None = None) -> float:
    idx = np.arange(len(pool)) if idx is None else idx
    actions = act(observations(pool, idx, setting))
    start, end = grid_points(actions)
    return float(simulate(pool.tables, idx, start, end).success.mean())


def random_act(obs: dict[str, np.ndarray]) -> np.ndarray:
    rng = np.random.default_rng(0)
    n = len(obs["instruction"])
    return rng.integers(0, np.array([*GRID, *GRID]), size=(n, 4))


# -- training -------------------------------------------------------------------------------------
def shifted(obs: dict[str, np.ndarray], start: np.ndarray, end: np.ndarray, rng) -> tuple:
    """Augmentation: translate the whole screen by up to 24 px (a rigid move changes nothing)."""
    shift = rng.uniform(-24, 24, size=(len(start), 2)).astype(np.float32)
    box = obs["element_box"].copy()
    present = obs["element_type"] > 0
    box[..., :2] += (shift / SCREEN[:2])[:, None, :] * present[..., None]
    obs = {**obs, "element_box": np.clip(box, 0, 1)}
    return obs, start + shift, end + shift


def bc_loss(net, obs, grab, drop, start, end) -> torch.Tensor:
    t = to_tensors(obs)
    out = net(t)
    b = torch.arange(len(grab))
    boxes = t["element_box"].float() * torch.as_tensor(SCREEN)
    src_xy, tgt_xy = boxes[b, grab, :2], boxes[b, drop, :2]
    want_grab = (torch.as_tensor(start) - src_xy) / OFFSET_PX
    want_drop = (torch.as_tensor(end) - torch.as_tensor(start) + src_xy - tgt_xy) / OFFSET_PX
    return (
        F.cross_entropy(out["grab_logits"], grab)
        + F.cross_entropy(out["drop_logits"], drop)
        + 20 * F.smooth_l1_loss(out["grab_offset"][b, grab], want_grab, beta=0.05)
        + 20 * F.smooth_l1_loss(out["drop_offset"][b, drop], want_drop, beta=0.05)
    )


def pg_loss(net, pool: Pool, idx, settings, rng, noise_px: float) -> tuple[torch.Tensor, float]:
    obs = observations(pool, idx, settings)
    t = to_tensors(obs)
    out = net(t)
    grab_d = torch.distributions.Categorical(logits=out["grab_logits"])
    drop_d = torch.distributions.Categorical(logits=out["drop_logits"])
    grab, drop = grab_d.sample(), drop_d.sample()
    start, end = points(t, out, grab, drop)
    sigma = noise_px
    noisy_start = start.detach() + torch.randn_like(start) * sigma
    noisy_end = end.detach() + torch.randn_like(end) * sigma
    logp = grab_d.log_prob(grab) + drop_d.log_prob(drop)
    logp = logp - ((noisy_start - start) ** 2).sum(1) / (2 * sigma**2)
    logp = logp - ((noisy_end - end) ** 2).sum(1) / (2 * sigma**2)
    actions = np.concatenate([grid_cells(noisy_start.numpy()), grid_cells(noisy_end.numpy())], 1)
    s, e = grid_points(actions)
    reward = simulate(pool.tables, idx, s, e).success.astype(np.float32)
    adv = torch.as_tensor(reward - reward.mean())
    return -(adv * logp).mean(), float(reward.mean())


def train(net, train_pool, heldout, targets, minutes, rl_share, eval_every, seed) -> list[dict]:
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    opt = torch.optim.AdamW(net.parameters(), lr=1e-3, weight_decay=1e-4)
    budget = minutes * 60
    t0 = time.perf_counter()
    curve: list[dict] = []
    next_eval, step = 0.0, 0
    gen_idx = np.arange(len(train_pool))
    bar = tqdm(total=int(budget), desc="training", unit="s")
    while (elapsed := time.perf_counter() - t0) < budget:
        if elapsed >= next_eval:
            curve.append(evaluate_fast(net, train_pool, heldout, elapsed, step))
            next_eval = elapsed + eval_every
            net.train()
        phase = "bc" if elapsed < budget * (1 - rl_share) else "rl"
        if phase == "bc":
            pick = rng.integers(len(targets.task), size=128)
            idx = targets.task[pick]
            obs = observations(train_pool, idx, rng.integers(len(SETTINGS), size=len(idx)))
            obs, start, end = shifted(obs, targets.start[pick], targets.end[pick], rng)
            loss = bc_loss(net, obs, torch.as_tensor(targets.grab[pick]),
                           torch.as_tensor(targets.drop[pick]), start, end)  # fmt: skip
        else:
            idx = rng.choice(gen_idx, size=256)
            loss, _ = pg_loss(net, train_pool, idx, rng.integers(len(SETTINGS), size=256), rng, 4.0)
            for group in opt.param_groups:
                group["lr"] = 1e-4
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        opt.step()
        step += 1
        bar.n = int(min(budget, time.perf_counter() - t0))
        bar.set_postfix(phase=phase, loss=f"{float(loss):.3f}")
    bar.close()
    curve.append(evaluate_fast(net, train_pool, heldout, time.perf_counter() - t0, step))
    return curve


def evaluate_fast(net, train_pool, heldout, elapsed, step) -> dict:
    policy = DragPolicy(net)
    row = {
        "minutes": round(elapsed / 60, 2),
        "updates": step,
        "fast_pass1_train": round(fast_pass1(train_pool, policy.predict, "baseline"), 4),
        "fast_pass1_heldout": round(fast_pass1(heldout, policy.predict, "baseline"), 4),
    }
    net.train()
    return row


def plot_curve(curve: list[dict], path: Path, rl_from: float | None = None) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    m = [c["minutes"] for c in curve]
    ax.plot(m, [c["fast_pass1_train"] for c in curve], label="training pool, with stored (fast)")
    ax.plot(m, [c["fast_pass1_heldout"] for c in curve], label="held-out pool (fast)")
    if rl_from is not None:
        ax.axvline(rl_from, color="grey", linestyle=":", label="cloning -> policy gradient")
    ax.set_xlabel("training minutes (CPU)")
    ax.set_ylabel("Pass@1")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    ax.set_title("Drag policy: behaviour cloning, then policy gradient")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


# -- real-editor evaluation -------------------------------------------------------------------------
# A job is (split, source, key, setting, agent): source is a pool directory (key: the task's index)
# or a ScratchWorld checkout (key: the task's id); agent is "trained" or "heuristic".
Job = tuple[str, str, str, str, str]
SPLITS = ("stored", "heldout", "scratchworld")
_real: dict = {}


def _init_real(policy_path: str) -> None:
    import gymnasium as gym

    import scratch_gym  # noqa: F401

    torch.set_num_threads(1)
    _real["env"] = gym.make("ScratchWorld-SingleDragElements-v0")
    _real["trained"] = DragPolicy.load(Path(policy_path))
    _real["heuristic"] = HeuristicDragPolicy()


def _task(split: str, source: str, key: str):
    if (source, key) not in _real:
        if split == "scratchworld":
            from scratch_gym.single_drag.scratchworld_tasks import (
                attach_regions,
                load_scratchworld_drag_tasks,
            )

            task = load_scratchworld_drag_tasks(source, [key])[0]
            attach_regions(
                [task], compute=False
            )  # BFS regions where cached, else Blockly's geometry
        else:
            from scratch_gym.single_drag.snapshot import Snapshot

            ids = json.loads((Path(source) / "pool.json").read_text())["tasks"]
            task = Snapshot.load(Path(source) / "snapshots" / f"{ids[int(key)]}.npz").task
        _real[(source, key)] = task
    return _real[(source, key)]


def _real_episode(job: Job) -> tuple[Job, bool]:
    split, source, key, setting, agent = job
    env = _real["env"]
    obs, _ = env.reset(options={"task": _task(split, source, key), "setting": setting})
    _, _, _, _, info = env.step(_real[agent](obs)[0])
    return job, bool(info["success"])


def evaluate_real(policy_path: Path, jobs: list[Job], workers: int) -> list[tuple[Job, bool]]:
    spawn = multiprocessing.get_context("spawn")  # no fork of a process that ran a browser
    with ProcessPoolExecutor(
        workers, mp_context=spawn, initializer=_init_real, initargs=(str(policy_path),)
    ) as ex:
        return list(tqdm(ex.map(_real_episode, jobs), total=len(jobs), desc="real editor"))


def scratchworld_ids(checkout: Path | None, only: list[str] | None) -> list[str]:
    """The ids of the checkout's drag tasks to run (all, or ``only``); checked before training."""
    if checkout is None:
        if only:
            raise SystemExit("error: --scratchworld-tasks needs --scratchworld PATH")
        return []
    from scratch_gym.single_drag.scratchworld_tasks import load_scratchworld_drag_tasks

    try:
        return [t.id for t in load_scratchworld_drag_tasks(checkout, only)]
    except (KeyError, ValueError) as exc:  # ScratchWorldDragError is a ValueError
        raise SystemExit(f"error: {exc.args[0] if exc.args else exc}") from None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--minutes", type=float, default=60.0, help="training time (CPU)")
    ap.add_argument("--out", type=Path, default=Path("runs/drag"))
    ap.add_argument("--train-tasks", type=int, default=300)
    ap.add_argument("--heldout-tasks", type=int, default=200)
    ap.add_argument("--train-pool", type=Path, help="use this pool for training")
    ap.add_argument("--heldout-pool", type=Path, help="use this pool as the held-out pool")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rl-share", type=float, default=0.25, help="share of time for RL")
    ap.add_argument("--eval-every", type=float, default=60.0, help="curve point every N s")
    ap.add_argument("--workers", type=int, default=2, help="editor pages (pools, evaluation)")
    ap.add_argument("--real-heldout", type=int, default=200, help="held-out tasks run for real")
    ap.add_argument("--settings", nargs="+", default=list(SETTINGS), choices=SETTINGS)
    ap.add_argument("--train-on-stored", action="store_true", help="also clone stored tasks")
    ap.add_argument(
        "--scratchworld", type=Path, metavar="PATH",
        help="also run the trained policy and the heuristic in the real editor on the Single-Step "
        "Drag tasks of this ScratchWorld checkout",
    )  # fmt: skip
    ap.add_argument("--scratchworld-tasks", nargs="+", metavar="ID", help="only these of its tasks")
    ap.add_argument("--skip-real", action="store_true", help="no real-editor evaluation")
    ap.add_argument("--real-splits", nargs="+", choices=SPLITS, default=list(SPLITS),
                    help="which tasks run in the real editor (default: all given)")  # fmt: skip
    ap.add_argument(
        "--policy", type=Path, help="skip training: evaluate this saved policy (OUT/policy.pt)"
    )
    args = ap.parse_args()
    sw_ids = scratchworld_ids(args.scratchworld, args.scratchworld_tasks)
    torch.set_num_threads(max(1, (os.cpu_count() or 2) - 1))
    args.out.mkdir(parents=True, exist_ok=True)

    train_dir = args.train_pool or args.out / "pool-train"
    held_dir = args.heldout_pool or args.out / "pool-heldout"
    if not args.train_pool:
        print(f"capturing {args.train_tasks} training tasks (+ stored) into {train_dir}")
        build_pool(train_dir, args.train_tasks, args.seed, stored=True, workers=args.workers)
    if not args.heldout_pool:
        print(f"capturing {args.heldout_tasks} held-out tasks into {held_dir}")
        build_pool(held_dir, args.heldout_tasks, args.seed + 1, workers=args.workers)
    train_pool, heldout = load_pool(train_dir), load_pool(held_dir)
    stored_idx = np.array([i for i, t in enumerate(train_pool.ids) if not t.startswith("gen-")])
    targets = bc_targets(train_pool)
    if not args.train_on_stored:
        keep = np.isin(targets.task, stored_idx, invert=True)
        targets = type(targets)(
            *(getattr(targets, f)[keep] for f in ("task", "grab", "drop", "start", "end"))
        )
    print(f"{len(targets.task)} demonstrations from {len(train_pool)} pooled tasks")

    if args.policy:
        policy = DragPolicy.load(args.policy)
        if args.policy.resolve() != (args.out / "policy.pt").resolve():
            policy.save(args.out / "policy.pt")
        train_minutes = float("nan")
    else:
        net = DragPolicyNet()
        t0 = time.perf_counter()
        curve = train(
            net,
            train_pool,
            heldout,
            targets,
            args.minutes,
            args.rl_share,
            args.eval_every,
            args.seed,
        )
        train_minutes = (time.perf_counter() - t0) / 60
        policy = DragPolicy(net)
        policy.save(args.out / "policy.pt")
        (args.out / "curve.json").write_text(json.dumps(curve, indent=1))
        plot_curve(curve, args.out / "curve.png", args.minutes * (1 - args.rl_share))

    # fast-path figures for every agent, per setting
    heuristic = HeuristicDragPolicy().predict
    n_held = min(args.real_heldout, len(heldout))
    held_idx = np.arange(n_held)
    fast = {}
    for name, act in (
        ("trained", policy.predict),
        ("heuristic", heuristic),
        ("random", random_act),
    ):
        for s in args.settings:
            fast[(name, "stored", s)] = (
                fast_pass1(train_pool, act, s, stored_idx) if len(stored_idx) else float("nan")
            )
            fast[(name, "heldout", s)] = fast_pass1(heldout, act, s, held_idx)

    jobs: list[Job] = [("stored", str(train_dir), str(i), s, "trained")
                       for s in args.settings for i in stored_idx]  # fmt: skip
    jobs += [
        ("heldout", str(held_dir), str(i), s, "trained") for s in args.settings for i in held_idx
    ]
    jobs += [("scratchworld", str(args.scratchworld), t, s, agent)
             for agent in ("trained", "heuristic") for s in args.settings for t in sw_ids]  # fmt: skip
    jobs = [] if args.skip_real else [j for j in jobs if j[0] in args.real_splits]
    results = evaluate_real(args.out / "policy.pt", jobs, args.workers) if jobs else []
    real: dict[tuple[str, str, str], list[bool]] = {}
    for (split, _, _, setting, agent), ok in results:
        real.setdefault((agent, split, setting), []).append(ok)

    def mean(values) -> float:
        return float(np.mean(values)) if len(values) else float("nan")

    def cell(value: float) -> str:
        return "-" if np.isnan(value) else f"{value:.3f}"

    rows = []
    for split in SPLITS:
        for s in args.settings:
            if split == "scratchworld" and not sw_ids:
                continue
            got = real.get(("trained", split, s), [])
            fast_of = {
                n: fast.get((n, split, s), float("nan")) for n in ("trained", "heuristic", "random")
            }
            rows.append([split, s, len(got), cell(mean(got)), cell(fast_of["trained"]),
                         cell(mean(real.get(("heuristic", split, s), []))),
                         cell(fast_of["heuristic"]), cell(fast_of["random"])])  # fmt: skip
    print(table(["tasks", "setting", "episodes", "trained (real)", "trained (fast)",
                 "heuristic (real)", "heuristic (fast)", "random (fast)"], rows))  # fmt: skip

    def overall(split: str, source: str = "real", name: str = "trained") -> float:
        if source == "real":
            return round(
                mean([v for s in args.settings for v in real.get((name, split, s), [])]), 4
            )
        return round(mean([fast[(name, split, s)] for s in args.settings]), 4)

    figures = {
        "real_pass1_stored": overall("stored"),
        "real_pass1_heldout": overall("heldout"),
        "fast_pass1_stored": overall("stored", "fast"),
        "fast_pass1_heldout": overall("heldout", "fast"),
        "heuristic_pass1_stored": overall("stored", "fast", "heuristic"),
        "heuristic_pass1_heldout": overall("heldout", "fast", "heuristic"),
        "random_pass1_heldout": overall("heldout", "fast", "random"),
        "random_pass1_stored": overall("stored", "fast", "random"),
        "train_minutes": round(train_minutes, 2),
        "demonstrations": int(len(targets.task)),
        "train_pool": len(train_pool),
        "heldout_tasks": n_held,
        "real_pass1_scratchworld": overall("scratchworld"),
        "heuristic_real_pass1_scratchworld": overall("scratchworld", "real", "heuristic"),
        "scratchworld_tasks": len(sw_ids),
        "real_episodes": len(results),
        "settings": args.settings,
    }
    (args.out / "figures.json").write_text(json.dumps(figures, indent=1))
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
