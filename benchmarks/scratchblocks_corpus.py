"""Round trip of an NL2Scratch-style corpus through the parser, the real VM and the renderer.

    python benchmarks/scratchblocks_corpus.py PATH.jsonl [--batch 200] [--failures 10]

Reads lines ``{"key", "nl", "pseudocode": [lines]}``, parses every program (corpus dialect),
loads the programs into a real VM in the editor page (one sprite per program, ``--batch``
programs per project), reads the blocks back from the VM, renders them in the corpus dialect
(from the blocks alone) and compares with the input after normalising whitespace and menu-value
spelling (``_edge_`` / ``edge``). Prints the rates, the distinct opcodes seen and the first
failures; the last line is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from tqdm import tqdm

from scratch_gym.editor.page import EditorPage
from scratch_gym.editor.vmcheck import batch_project, load_batches
from scratch_gym.program import ScratchblocksError, parse_scripts, render_scripts
from scratch_gym.program.normalize import normalize_program


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("path", type=Path)
    ap.add_argument("--batch", type=int, default=200, help="programs per VM load")
    ap.add_argument("--failures", type=int, default=10, help="failures to print")
    args = ap.parse_args(argv)
    records = [json.loads(x) for x in args.path.read_text(encoding="utf-8").splitlines() if x]
    t0 = time.perf_counter()

    parsed, failures = {}, []
    for i, rec in enumerate(tqdm(records, desc="parse", file=sys.stderr)):
        try:
            parsed[i] = parse_scripts(
                "\n".join(rec["pseudocode"]), dialect="nl2scratch", id_prefix=f"p{i}_"
            )
        except ScratchblocksError as exc:
            failures.append((rec["key"], "parse", str(exc)))
    t_parse = time.perf_counter() - t0

    page = EditorPage().open()
    loaded: dict[int, dict] = {}
    try:
        ids = list(parsed)
        chunks = [ids[k : k + args.batch] for k in range(0, len(ids), args.batch)]
        for chunk in tqdm(chunks, desc="vm", file=sys.stderr):
            result = load_batches(page, [batch_project({f"P{i}": parsed[i] for i in chunk})])[0]
            if result.ok:
                loaded.update({i: result.blocks.get(f"P{i}", {}) for i in chunk})
                continue
            for i in chunk:  # find the programs the VM refuses
                one = load_batches(page, [batch_project({f"P{i}": parsed[i]})])[0]
                if one.ok:
                    loaded[i] = one.blocks.get(f"P{i}", {})
                else:
                    failures.append((records[i]["key"], "vm", one.error))
    finally:
        page.close()

    exact, opcodes = 0, Counter()
    for i, blocks in loaded.items():
        for b in blocks.values():
            if isinstance(b, dict) and not b.get("shadow"):
                opcodes[b["opcode"]] += 1
            elif isinstance(b, list):
                opcodes["data_variable" if b[0] == 12 else "data_listcontents"] += 1
        text = render_scripts(blocks, dialect="nl2scratch")
        want = normalize_program(records[i]["pseudocode"])
        got = normalize_program(text)
        if want == got:
            exact += 1
            continue
        diff = next(
            (f"want {a!r}\n      got  {b!r}" for a, b in zip(want, got, strict=False) if a != b),
            f"want {len(want)} lines, got {len(got)}",
        )
        failures.append((records[i]["key"], "roundtrip", diff))

    n = len(records)
    print(f"programs          {n}")
    print(f"parse success     {len(parsed)}/{n} = {len(parsed) / n:.4f}  ({t_parse:.2f} s)")
    print(f"vm loaded         {len(loaded)}/{n} = {len(loaded) / n:.4f}")
    print(f"round trip exact  {exact}/{n} = {exact / n:.4f}")
    print(f"distinct opcodes  {len(opcodes)}: {', '.join(sorted(opcodes))}")
    for key, stage, message in failures[: args.failures]:
        print(f"-- {stage} failure {key}\n      {message}")
    summary = {
        "programs": n,
        "parse_success": round(len(parsed) / n, 4),
        "vm_loaded": round(len(loaded) / n, 4),
        "roundtrip_exact": round(exact / n, 4),
        "distinct_opcodes": len(opcodes),
        "failures": len(failures),
        "seconds": round(time.perf_counter() - t0, 2),
    }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
