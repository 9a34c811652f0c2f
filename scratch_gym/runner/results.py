"""Results as JSON lines, one finished episode a line, safe against interruption.

Each record is appended as one ``write`` of a whole line on a file opened with ``O_APPEND``, then
flushed and fsynced, so a crash leaves at most one partial last line. Opening the file drops such
a partial line (rewriting the file through a temporary file and an atomic rename). Records are
keyed by ``key`` (agent|mode|task|run); reading keeps the last record of each key, so a redone
episode replaces the failed one, and an episode that finished is never redone nor counted twice.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from scratch_gym.records.status import DONE as DONE_STATUSES  # infrastructure errors are redone


class ResultsFile:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def repair(self) -> int:
        """Drop a partial or corrupt trailing line; returns the number of lines dropped."""
        if not self.path.exists():
            return 0
        raw = self.path.read_bytes()
        lines = raw.split(b"\n")
        good = [ln for ln in lines if ln.strip() and _loads(ln) is not None]
        dropped = sum(1 for ln in lines if ln.strip()) - len(good)
        if dropped or (raw and not raw.endswith(b"\n")):
            tmp = self.path.with_name(self.path.name + ".tmp")
            tmp.write_bytes(b"".join(ln + b"\n" for ln in good))
            with open(tmp, "rb") as fh:
                os.fsync(fh.fileno())
            os.replace(tmp, self.path)
        return dropped

    def records(self) -> list[dict[str, Any]]:
        """The last record of each key, in file order of first appearance."""
        if not self.path.exists():
            return []
        latest: dict[str, dict[str, Any]] = {}
        for line in self.path.read_bytes().split(b"\n"):
            record = _loads(line) if line.strip() else None
            if record is not None and "key" in record:
                latest[record["key"]] = record
        return list(latest.values())

    def done_keys(self) -> set[str]:
        return {r["key"] for r in self.records() if r.get("status") in DONE_STATUSES}

    def append(self, record: dict[str, Any]) -> None:
        line = (json.dumps(record, default=str, ensure_ascii=False) + "\n").encode("utf-8")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)


def _loads(line: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    return value if isinstance(value, dict) else None
