"""Train the drag policy on generated tasks only, on the fast drag path, on CPU.

    python examples/train_drag_policy.py --out runs/drag

Time: about 55 minutes on 2 cores at the defaults (on 7 December 2026: the 2,200 training tasks
of generator version 7 captured in 36.5 minutes beside other work, about 1 s a task; 1,200
updates, 1,050 of cloning and 150 of policy gradient, about 16 minutes on idle cores).

1. Pools: captures ``--train-tasks`` generated tasks (seed ``--pool-seed``, generator version
   ``--generator-version``, 7 for the shipped checkpoint) and ``--heldout-tasks``
   held-out ones (seed ``--pool-seed + 1``) from the real editor into OUT/pool-train and
   OUT/pool-heldout (about 1 s a task with 2 workers), or reuses pools built elsewhere
   (``--train-pool``/``--heldout-pool``). Building is resumable. A training pool that holds
   anything but generated tasks is refused: the stored tasks and the transfer tests stay held out.
   Defaults: 2,200 + 60 tasks, about 37 minutes.
2. Training for ``--updates`` steps (a budget in steps, so a busy machine gives the same policy,
   only later; ``--seed`` fixes the initial weights, the batches and the rewordings):
   behaviour cloning from the oracle's drags (the start region's anchor, the drop that aligns
   the intended connections, and the relation kind), then, for the last ``--rl-share`` of the
   steps, policy-gradient fine-tuning (REINFORCE with a mean baseline) on the fast vector env.
   The geometric drop rules start from their least-squares fit to the demonstrations. Why this
   order: a uniformly random drag succeeds about once in 20,000 tries, so RL from scratch sees
   no reward; cloning puts the policy where rewards are, and the fine-tuning then optimises the
   real objective (the connection forms) rather than closeness to one demonstrated point. The
   defaults (``--layout 8 --seed 7 --lr 3e-3``, 1,200 updates, the last eighth of them
   fine-tuning) train the shipped checkpoint (docs/training.md): the policy a 1,400-update run
   with the last quarter fine-tuning saved after its 1,200th. Every ``--eval-every`` updates
   the fast path's Pass@1 on both pools goes into the learning curve (OUT/curve.png,
   OUT/curve.json); ``--snapshots`` also keeps the policy of each of those points.

Writes OUT/policy.pt (``scratch-gym eval --suite single-drag --agent drag-policy:OUT/policy.pt``
runs it in the real editor; ``benchmarks/drag_transfer.py --policy OUT/policy.pt`` on every
split) and prints the held-out pool's fast-path Pass@1 per setting for the trained policy, the
scripted heuristic and random drags; the last line is one JSON object of figures.
Needs the ``rl`` extra (torch, matplotlib).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import torch
from torch.nn import functional as F
from tqdm import tqdm

from scratch_gym.records.text import json_line, table
from scratch_gym.single_drag import tokens
from scratch_gym.single_drag.drag_model import simulate
from scratch_gym.single_drag.fast.pool import Pool, build_pool, load_pool
from scratch_gym.single_drag.generation.generator import reinstruct
from scratch_gym.single_drag.generation.versions import VERSIONS as GENERATOR_VERSIONS
from scratch_gym.single_drag.rl_spaces import GRID, grid_cells, grid_points
from scratch_gym.single_drag.tasks.instructions import SETTINGS, instruction_for
from scratch_gym.single_drag.training.heuristic import HeuristicDragPolicy
from scratch_gym.single_drag.training.policy import (
    FLYOUT_BLOCK,
    LAYOUTS,
    OFFSET_PX,
    SCREEN,
    DragPolicy,
    DragPolicyNet,
    bc_targets,
    points,
    to_tensors,
    trimmed,
)


def reworded_instructions(pool: Pool, m: int, seed: int) -> dict[str, np.ndarray]:
    """Per setting, ``m`` other wordings of every pooled task's instruction as token ids
    (T, m, L): the same scene and goal, worded anew by the grammar of the generator version
    that drew the pool (``reinstruct``), so that 1,100 captured scenes show thousands of
    sentences."""
    version = pool.generator or min(GENERATOR_VERSIONS)  # a pool from before versions: 5's rules
    out = {s: np.zeros((len(pool), m, tokens.INSTRUCTION_TOKENS), np.int64) for s in SETTINGS}
    for i, snap in enumerate(tqdm(pool.snapshots, desc="rewording", unit="task")):
        rng = random.Random(seed * 1_000_003 + i)
        for j in range(m):
            task = replace(snap.task, instruction=reinstruct(snap.task, rng, version))
            for s in SETTINGS:
                out[s][i, j] = tokens.encode(instruction_for(task, s), tokens.INSTRUCTION_TOKENS)
    return out


def reworded(
    obs: dict[str, np.ndarray],
    idx: np.ndarray,
    settings: np.ndarray,
    wordings: dict[str, np.ndarray] | None,
    rng,
    share: float = 0.5,
) -> dict:
    """Augmentation: a ``share`` of the rows get one of their task's other wordings."""
    if not wordings:
        return obs
    ins = obs["instruction"].copy()
    for r in np.flatnonzero(rng.random(len(idx)) < share):
        table_ = wordings[SETTINGS[int(settings[r])]]
        ins[r] = table_[idx[r], rng.integers(table_.shape[1])]
    return {**obs, "instruction": ins}


def observations(pool: Pool, idx: np.ndarray, setting: str | np.ndarray) -> dict[str, np.ndarray]:
    if isinstance(setting, str):
        ins = pool.instructions[setting][idx]
    else:
        stacked = np.stack([pool.instructions[s] for s in SETTINGS])
        ins = stacked[setting, idx]
    return trimmed({"instruction": ins, **{k: v[idx] for k, v in pool.elements.items()}})


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


def unquoted(obs: dict[str, np.ndarray], rng, share: float = 0.15) -> dict[str, np.ndarray]:
    """Augmentation: a ``share`` of the instructions lose their quote marks (people do not always
    quote block names), so that the policy also finds blocks without them."""
    ins = obs["instruction"]
    drop = rng.random(len(ins)) < share
    if not drop.any():
        return obs
    ins = ins.copy()
    for i in np.flatnonzero(drop):
        kept = ins[i][ins[i] != tokens.QUOTE]
        ins[i] = np.pad(kept, (0, ins.shape[1] - len(kept)))
    return {**obs, "instruction": ins}


def dropped_words(obs: dict[str, np.ndarray], rng, share: float = 0.1) -> dict[str, np.ndarray]:
    """Augmentation: each word outside the quotes is left out with probability ``share``, so
    that no single word of a template (nor the template's exact wording) decides the relation;
    the quoted block names are kept whole."""
    ins = obs["instruction"]
    quoted = np.cumsum(ins == tokens.QUOTE, axis=1) % 2 == 1
    free = (ins != tokens.PAD) & (ins != tokens.QUOTE) & ~quoted
    drop = free & (rng.random(ins.shape) < share)
    if not drop.any():
        return obs
    out = np.zeros_like(ins)
    for i in range(len(ins)):
        kept = ins[i][(ins[i] != tokens.PAD) & ~drop[i]]
        out[i, : len(kept)] = kept
    return {**obs, "instruction": out}


def bc_loss(net, obs, grab, drop, start, end, relation, pick=None) -> torch.Tensor:
    """Cloning loss; the drop head learns to pick ``pick`` (default ``drop``: a layout-4 network
    picks a mouth's C-block) and the drop offset is fitted on ``drop``, where it is placed."""
    t = to_tensors(obs)
    out = net(t, grab)  # the drop head sees the demonstrated grab
    b = torch.arange(len(grab))
    boxes = t["element_box"].float() * torch.as_tensor(SCREEN)
    src_xy, tgt_xy = boxes[b, grab, :2], boxes[b, drop, :2]
    want_grab = (torch.as_tensor(start) - src_xy) / OFFSET_PX
    want_drop = (torch.as_tensor(end) - torch.as_tensor(start) + src_xy - tgt_xy) / OFFSET_PX
    origin = 0.0
    if out["origin_logits"] is not None:  # where the grabbed element is: canvas 0, palette 1
        where = (t["element_type"].long()[b, grab] == FLYOUT_BLOCK).long()
        origin = F.cross_entropy(out["origin_logits"], where)
    return (
        F.cross_entropy(out["grab_logits"], grab)
        + origin
        + F.cross_entropy(out["drop_logits"], drop if pick is None else pick)
        + F.cross_entropy(out["relation_logits"], relation)
        + 20 * F.smooth_l1_loss(out["grab_offset"][b, grab], want_grab, beta=0.05)
        + 20 * F.smooth_l1_loss(out["drop_offset"][b, drop], want_drop, beta=0.05)
    )


def pg_loss(
    net,
    pool: Pool,
    idx,
    settings,
    rng,
    noise_px: float,
    wordings: dict[str, np.ndarray] | None = None,
) -> tuple[torch.Tensor, float]:
    obs = reworded(observations(pool, idx, settings), idx, settings, wordings, rng)
    t = to_tensors(obs)
    state = net.encode(t)
    grab_d = torch.distributions.Categorical(logits=state["grab_logits"])
    grab = grab_d.sample()
    out = {**state, **net.drop(state, grab)}
    drop_d = torch.distributions.Categorical(logits=out["drop_logits"])
    drop = drop_d.sample()
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


def train(
    net,
    train_pool,
    heldout,
    targets,
    updates,
    rl_share,
    eval_every,
    seed,
    wordings: dict[str, np.ndarray] | None = None,
    snapshots: Path | None = None,
    lr: float = 3e-3,
) -> list[dict]:
    """``updates`` optimiser steps (cloning, then policy gradient for the last ``rl_share``): a
    budget in steps, not seconds, so that the same seed gives the same policy on a busy machine.
    Cloning steps at learning rate ``lr``, the policy gradient at 1e-4. With ``snapshots``, the
    policy at every curve point is saved there as ``policy-<updates>.pt``, to be chosen among
    on validation."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=0.05)
    t0 = time.perf_counter()
    curve: list[dict] = []
    gen_idx = np.arange(len(train_pool))
    rl_from = int(updates * (1 - rl_share))
    for step in (bar := tqdm(range(updates), desc="training", unit="update")):
        if step % eval_every == 0:
            curve.append(evaluate_fast(net, train_pool, heldout, time.perf_counter() - t0, step))
            if snapshots is not None and step:
                DragPolicy(net).save(snapshots / f"policy-{step:05d}.pt")
                net.train()
        phase = "bc" if step < rl_from else "rl"
        if phase == "bc":
            pick = rng.integers(len(targets.task), size=128)
            idx = targets.task[pick]
            settings = rng.integers(len(SETTINGS), size=len(idx))
            obs = reworded(observations(train_pool, idx, settings), idx, settings, wordings, rng)
            obs, start, end = shifted(obs, targets.start[pick], targets.end[pick], rng)
            obs = dropped_words(unquoted(obs, rng), rng)
            picked = targets.pick[pick] if net.layout >= 4 else targets.drop[pick]
            loss = bc_loss(net, obs, torch.as_tensor(targets.grab[pick]),
                           torch.as_tensor(targets.drop[pick]), start, end,
                           torch.as_tensor(targets.relation[pick]),
                           torch.as_tensor(picked))  # fmt: skip
        else:
            idx = rng.choice(gen_idx, size=256)
            settings = rng.integers(len(SETTINGS), size=256)
            loss, _ = pg_loss(net, train_pool, idx, settings, rng, 4.0, wordings)
            for group in opt.param_groups:
                group["lr"] = 1e-4
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        opt.step()
        bar.set_postfix(phase=phase, loss=f"{loss.item():.3f}", refresh=False)
    curve.append(evaluate_fast(net, train_pool, heldout, time.perf_counter() - t0, updates))
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


def plot_curve(curve: list[dict], path: Path, rl_from: int | None = None) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    m = [c["updates"] for c in curve]
    ax.plot(m, [c["fast_pass1_train"] for c in curve], label="training pool (fast)")
    ax.plot(m, [c["fast_pass1_heldout"] for c in curve], label="held-out pool (fast)")
    if rl_from is not None:
        ax.axvline(rl_from, color="grey", linestyle=":", label="cloning -> policy gradient")
    ax.set_xlabel("updates (batches of 128 demonstrations, then 256 fast-path drags)")
    ax.set_ylabel("Pass@1")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    ax.set_title("Drag policy: behaviour cloning, then policy gradient")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> None:
    class Help(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
        pass

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=Help)
    ap.add_argument("--updates", type=int, default=1200,
                    help="optimiser steps (about 105 cloning steps or 50 policy-gradient steps a "
                         "minute on 2 idle cores)")  # fmt: skip
    ap.add_argument("--out", type=Path, default=Path("runs/drag"), help="output folder")
    ap.add_argument("--train-tasks", type=int, default=2200,
                    help="generated training tasks (of a --train-pool: its first N)")  # fmt: skip
    ap.add_argument(
        "--heldout-tasks", type=int, default=60, help="validation tasks (pool seed + 1)"
    )
    ap.add_argument("--train-pool", type=Path, help="use this pool for training")
    ap.add_argument("--heldout-pool", type=Path, help="use this pool as the held-out pool")
    ap.add_argument("--pool-seed", type=int, default=100,
                    help="seed of the captured training pool (held out: +1)")  # fmt: skip
    ap.add_argument("--seed", type=int, default=7,
                    help="training seed: initial weights, batches, rewordings")  # fmt: skip
    ap.add_argument("--rl-share", type=float, default=0.125,
                    help="share of updates for RL (policy gradient after cloning)")  # fmt: skip
    ap.add_argument("--eval-every", type=int, default=100, help="curve point every N updates")
    ap.add_argument("--workers", type=int, default=2, help="editor pages capturing the pools")
    ap.add_argument("--layout", type=int, choices=LAYOUTS, default=8,
                    help="how the network reads the scene's layout (DragPolicyNet; the shipped "
                         "checkpoint's is 8: docs/training.md)")  # fmt: skip
    ap.add_argument("--generator-version", type=int, choices=GENERATOR_VERSIONS, default=7,
                    help="which task generator draws the pools it captures (the shipped "
                         "checkpoint's is 7: generation/versions.py)")  # fmt: skip
    ap.add_argument("--snapshots", action="store_true",
                    help="also save the policy at every curve point, as "
                         "OUT/snapshots/policy-<updates>.pt")  # fmt: skip
    ap.add_argument("--lr", type=float, default=3e-3,
                    help="cloning's learning rate (the policy gradient's is 1e-4; the layout-8 "
                         "checkpoint shipped before trained at 2e-3, the ones before layout 8 "
                         "at 1e-3)")  # fmt: skip
    ap.add_argument("--rewordings", type=int, default=6,
                    help="other wordings of each training instruction (0: the captured one only)")  # fmt: skip
    args = ap.parse_args()
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    args.out.mkdir(parents=True, exist_ok=True)
    t_start = time.perf_counter()

    train_dir = args.train_pool or args.out / "pool-train"
    held_dir = args.heldout_pool or args.out / "pool-heldout"
    for folder, n, seed, given in ((train_dir, args.train_tasks, args.pool_seed, args.train_pool),
                                   (held_dir, args.heldout_tasks, args.pool_seed + 1,
                                    args.heldout_pool)):  # fmt: skip
        if not given:
            print(f"capturing {n} generated tasks (seed {seed}) into {folder}")
            bar = tqdm(desc="capturing", unit="task")

            def progress(done: int, total: int, bar=bar) -> None:
                bar.total, bar.n = total, done
                bar.refresh()

            build_pool(
                folder, n, seed, workers=args.workers, progress=progress,
                version=args.generator_version,
            )  # fmt: skip
            bar.close()
    train_pool, heldout = load_pool(train_dir, limit=args.train_tasks), load_pool(held_dir)
    not_generated = [t for t in train_pool.ids if not t.startswith("gen-")]
    if not_generated:
        raise SystemExit(
            f"error: {train_dir} holds tasks that are not generated ({', '.join(not_generated[:3])}"
            "...): train only on generated tasks, so that the stored ones stay held out"
        )
    targets = bc_targets(train_pool, args.layout)
    print(f"{len(targets.task)} demonstrations from {len(train_pool)} pooled tasks")
    torch.manual_seed(args.seed)  # the initial weights too: the same seed, the same policy
    net = DragPolicyNet(origin=True, layout=args.layout)
    with torch.no_grad():  # the geometric rules start from their least-squares fit
        net.rules.copy_(torch.as_tensor(targets.fitted_rules(train_pool, net.layout)))
    wordings = (
        reworded_instructions(train_pool, args.rewordings, args.seed) if args.rewordings else None
    )
    snapshots = args.out / "snapshots" if args.snapshots else None
    if snapshots is not None:
        snapshots.mkdir(exist_ok=True)
    t0 = time.perf_counter()
    curve = train(net, train_pool, heldout, targets, args.updates, args.rl_share,
                  args.eval_every, args.seed, wordings, snapshots, args.lr)  # fmt: skip
    train_minutes = (time.perf_counter() - t0) / 60
    policy = DragPolicy(net)
    policy.save(args.out / "policy.pt")
    (args.out / "curve.json").write_text(json.dumps(curve, indent=1))
    plot_curve(curve, args.out / "curve.png", int(args.updates * (1 - args.rl_share)))

    rows, figures = [], {}
    for name, act in (("trained", policy.predict), ("heuristic", HeuristicDragPolicy().predict),
                      ("random", random_act)):  # fmt: skip
        per = {s: fast_pass1(heldout, act, s) for s in SETTINGS}
        rows.append([name, *(f"{per[s]:.3f}" for s in SETTINGS)])
        figures[f"{name}_fast_pass1_heldout"] = round(float(np.mean(list(per.values()))), 4)
    print(table(["policy (held-out pool, fast path)", *SETTINGS], rows))
    figures.update({
        "train_minutes": round(train_minutes, 2),
        "total_minutes": round((time.perf_counter() - t_start) / 60, 2),
        "updates": args.updates,
        "demonstrations": int(len(targets.task)),
        "train_pool": len(train_pool),
        "heldout_pool": len(heldout),
        "checkpoint_mb": round((args.out / "policy.pt").stat().st_size / 2**20, 3),
        "policy": str(args.out / "policy.pt"),
    })  # fmt: skip
    (args.out / "figures.json").write_text(json.dumps(figures, indent=1))
    print(json_line(figures))  # valid JSON: null, never NaN


if __name__ == "__main__":
    main()
