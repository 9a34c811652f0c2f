"""``scratch-gym install``: fetch the pinned Scratch editor into the cache (idempotent)."""

from __future__ import annotations

import argparse

from scratch_gym.cli.output import print_json_last
from scratch_gym.editor.install import find_chromium, install_editor, pinned_version


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("install", help="fetch the pinned Scratch editor (npm) into the cache")
    p.add_argument("--force", action="store_true", help="download again even if installed")
    p.add_argument("--json", action="store_true", help="print one JSON object last")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    root = install_editor(force=args.force, quiet=args.json)
    chromium = find_chromium()
    if args.json:
        print_json_last({"editor": str(root), "version": pinned_version(), "chromium": chromium})
    else:
        print(f"editor {pinned_version()}: {root}\nchromium: {chromium}")
    return 0
