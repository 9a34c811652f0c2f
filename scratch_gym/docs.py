"""Generate the README's reference sections from the package's single sources of truth.

``python -m scratch_gym.docs`` rewrites every ``<!-- BEGIN GENERATED: name -->`` ...
``<!-- END GENERATED: name -->`` section of README.md; ``--check`` fails when one is stale (a test
runs it).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path

from scratch_gym.actions.primitive import actions_markdown
from scratch_gym.registration import ENV_IDS


def env_ids_markdown() -> str:
    rows = ["| id | for |", "| --- | --- |"]
    rows.extend(f"| `{env_id}` | {spec.doc} |" for env_id, spec in ENV_IDS.items())
    return "\n".join(rows)


SECTIONS: dict[str, Callable[[], str]] = {
    "env-ids": env_ids_markdown,
    "primitive-actions": actions_markdown,
}

_PATTERN = re.compile(
    r"(<!-- BEGIN GENERATED: (?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- END GENERATED: (?P=name) -->)",
    re.S,
)


def render(text: str) -> str:
    """``text`` with every generated section replaced by its current content."""

    def replace(match: re.Match[str]) -> str:
        name = match["name"]
        if name not in SECTIONS:
            raise KeyError(f"README names an unknown generated section {name!r}")
        return f"{match.group(1)}{SECTIONS[name]().rstrip()}\n{match.group(4)}"

    return _PATTERN.sub(replace, text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="regenerate README reference sections")
    ap.add_argument("--readme", default=str(Path(__file__).resolve().parent.parent / "README.md"))
    ap.add_argument("--check", action="store_true", help="fail if a section is stale")
    args = ap.parse_args(argv)
    path = Path(args.readme)
    old = path.read_text()
    new = render(old)
    if args.check:
        if new != old:
            print(f"{path} has stale generated sections; run python -m scratch_gym.docs")
            return 1
        return 0
    path.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
