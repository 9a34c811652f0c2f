"""OCR on editor screenshots: recall of the DOM's visible texts, and latency per drag step, for
PaddleOCR (the default engine) and RapidOCR, each on the same scenes and drags.

    python benchmarks/ocr.py [--screens 6] [--steps 12] [--engines paddleocr rapidocr]
        [--seed 0] [--threads 1]

Accuracy: on ``--screens`` perception scenes (random scripts, varied palette categories) the share
of visible DOM text atoms (Blockly field texts, HTML text runs, input values; those with a letter or
digit) that a full OCR pass finds in an overlapping line. One engine reads the scenes in turn, so
a line seen in an earlier scene (the palette's, mostly) is read from its cache, as in an episode.
Latency: ``--steps`` drags of random canvas scripts; after each, the frame is read incrementally
(changed regions only, reusing the rest) and, for comparison, by a full pass of a second engine
without any cache; recall of both is measured on the same frames. Models load before the timings.
Prints a table; the last line is one JSON object: the first engine's ``engine``, ``recall`` and
``full_frame_ms_p50`` (the full passes), ``step_ms_p50`` (incremental), ``step_ms_full_p50`` (the
cache-free pass), ..., and every engine's figures under ``by_engine``. ``load_avg`` tells how busy
the machine was, and ``step_cpu_ms_p50`` (the process's CPU time per step) what a step costs when
the other processes are not competing for the cores.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import time
from typing import Any

from scratch_gym.cli.output import print_json_last, table
from scratch_gym.editor.page import EditorPage
from scratch_gym.observations.elements import text_explains
from scratch_gym.ocr import IncrementalOcr, TextBox, make_engine
from scratch_gym.ocr.paddle import PaddleOcrEngine
from scratch_gym.perception.dataset import render
from scratch_gym.perception.scenes import make_scene

CANVAS = (340.0, 120.0, 740.0, 680.0)
ENGINES = ("paddleocr", "rapidocr")  # the default engine first


def _norm(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "", text.lower())


def _overlaps(atom: dict[str, Any], box: TextBox) -> bool:
    return (
        atom["x"] < box.x + box.w
        and box.x < atom["x"] + atom["w"]
        and atom["y"] < box.y + box.h
        and box.y < atom["y"] + atom["h"]
    )


def recall(atoms: list[dict[str, Any]], boxes: list[TextBox]) -> tuple[int, int]:
    """(found, total) over atoms with a letter or digit."""
    found = total = 0
    for atom in atoms:
        a = _norm(atom["text"])
        if not a:
            continue
        total += 1
        for b in boxes:
            if _overlaps(atom, b) and (
                a in _norm(b.text) or (len(a) >= 3 and text_explains(b.text, atom["text"]))
            ):
                found += 1
                break
    return found, total


def drag_random_script(page: EditorPage, rng: random.Random) -> None:
    info = page.call("elements.blockInfo")
    listed = {e["block_id"]: e for e in page.bridge.elements_list() if e["type"] == "block"}
    tops = [b["id"] for b in info if b["parent"] is None and b["id"] in listed]
    el = listed[rng.choice(sorted(tops))]
    x1, y1 = rng.uniform(CANVAS[0], CANVAS[2]), rng.uniform(CANVAS[1], CANVAS[3])
    page.mouse_move(el["cx"], el["cy"])
    page.mouse_down()
    page.mouse_move(el["cx"] + 8, el["cy"] + 8, steps=2)
    page.mouse_move(x1, y1, steps=4)
    page.mouse_up()
    page.mouse_move(700, 30)
    page.settle(stop_vm=True)


def p50(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def measure(page: EditorPage, name: str, args: argparse.Namespace) -> dict[str, Any]:
    """One engine's figures: full passes over ``args.screens`` scenes, then ``args.steps`` drags
    read incrementally and, for comparison, by a second engine of the same kind with no cache.
    Every engine sees the same scenes and the same drags (the drags' random generator starts
    from ``args.seed`` for each)."""
    rng = random.Random(args.seed)
    paddle = name == "paddleocr"
    opts = {"det_scale": args.det_scale, "threads": args.threads} if paddle else {}
    engine = make_engine(name, args.min_score, **opts)
    # The full pass of the latency comparison: a second engine that caches nothing.
    plain = (
        PaddleOcrEngine(args.min_score, cache_size=0, **opts)
        if paddle
        else make_engine(name, args.min_score)
    )
    engine.load()  # the models load outside the timings
    plain.load()
    full_found = full_total = 0
    frame_ms = []
    for i in range(args.screens):
        render(page, make_scene(args.seed, i))
        shot, atoms = page.screenshot(), page.call("elements.texts")
        t0 = time.perf_counter()
        boxes = engine.recognize(shot)
        frame_ms.append((time.perf_counter() - t0) * 1000)
        f, t = recall(atoms, boxes)
        full_found, full_total = full_found + f, full_total + t
        print(f"{name} screen {i}: recall {f}/{t} = {f / t:.3f}, {frame_ms[-1]:.0f} ms", flush=True)

    render(page, make_scene(args.seed, 0))
    inc = IncrementalOcr(engine)
    inc.recognize(page.screenshot())
    step_ms, step_cpu_ms, full_ms, areas = [], [], [], []
    inc_found = inc_total = ref_found = ref_total = 0
    for step in range(args.steps):
        drag_random_script(page, rng)
        shot, atoms = page.screenshot(), page.call("elements.texts")
        c0 = time.process_time()
        boxes = inc.recognize(shot)
        step_cpu_ms.append((time.process_time() - c0) * 1000)
        step_ms.append(inc.stats.ms)
        areas.append(inc.stats.area_fraction)
        t0 = time.perf_counter()
        ref = plain.recognize(shot)
        full_ms.append((time.perf_counter() - t0) * 1000)
        f, t = recall(atoms, boxes)
        rf, rt = recall(atoms, ref)
        inc_found, inc_total = inc_found + f, inc_total + t
        ref_found, ref_total = ref_found + rf, ref_total + rt
        print(
            f"{name} drag {step}: {inc.stats.mode} {step_ms[-1]:.0f} ms "
            f"({100 * areas[-1]:.1f}% of the frame), full {full_ms[-1]:.0f} ms; "
            f"recall {f}/{t} vs full {rf}/{rt}",
            flush=True,
        )
    return {
        "engine": name,
        "recall": full_found / max(full_total, 1),
        "full_frame_ms_p50": p50(frame_ms),
        "step_ms_p50": p50(step_ms),
        "step_cpu_ms_p50": p50(step_cpu_ms),
        "step_ms_full_p50": p50(full_ms),
        "step_recall_incremental": inc_found / max(inc_total, 1),
        "step_recall_full": ref_found / max(ref_total, 1),
        "step_changed_area_p50": p50(areas),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--screens", type=int, default=6)
    ap.add_argument("--steps", type=int, default=12)
    ap.add_argument("--engines", nargs="+", default=list(ENGINES), choices=ENGINES,
                    help="engines to measure, each on the same scenes and drags; the first "
                    "one's figures are the JSON's top-level keys")  # fmt: skip
    ap.add_argument("--min-score", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--det-scale", type=float, default=1.0, help="paddleocr: detection upscale")
    ap.add_argument("--threads", type=int, default=1,
                    help="paddleocr: onnxruntime threads per model (0: one per core)")  # fmt: skip
    args = ap.parse_args(argv)
    page = EditorPage().open()
    try:
        figures = {name: measure(page, name, args) for name in args.engines}
    finally:
        page.close()
    result = {
        **figures[args.engines[0]],
        "by_engine": figures,
        "det_scale": args.det_scale,
        "threads": args.threads,
        "screens": args.screens,
        "steps": args.steps,
        "load_avg": round(os.getloadavg()[0], 2),
        "cpus": os.cpu_count(),
    }
    rows = []
    for name, f in figures.items():
        rows += [
            (name, "full frame, reads cached across scenes", f["full_frame_ms_p50"], f["recall"]),
            (name, "after a drag, incremental", f["step_ms_p50"], f["step_recall_incremental"]),
            (
                name,
                "after a drag, full pass, no cache",
                f["step_ms_full_p50"],
                f["step_recall_full"],
            ),
        ]
    print(f"\npaddleocr: {args.threads} thread(s); load average {result['load_avg']}")
    print(table(["engine", "read", "ms p50", "recall"], rows))
    print_json_last(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
