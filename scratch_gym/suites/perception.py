"""The Visual Perception QA suite (``perception``): one question about one editor screenshot per
episode, live in the editor; reported as accuracy by question type.

With ``scratchworld`` (a ScratchWorld checkout) its tasks are instead the 200 items of
ScratchWorld's Visual Perception benchmark (:mod:`scratch_gym.scratchworld.perception`): each
shown with its given screenshot, judged by ScratchWorld's answer rules, its category is its tag
(``--categories exact_match_numeric``), and the report is ScratchWorld's two tables (per task type
and per tag) for each agent."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from scratch_gym.records.status import is_counted
from scratch_gym.records.text import table
from scratch_gym.suites.base import Suite, select_among

PERCEPTION_KINDS = ("connection", "existence", "field")


@dataclass(frozen=True)
class PerceptionSuite(Suite):
    """The questions of the first ``screens`` scenes of the benchmark drawn with ``seed``; or,
    with ``scratchworld``, the items of that checkout's Visual Perception benchmark."""

    seed: int = 0
    screens: int = 10
    scratchworld: str | None = None
    name = "perception"
    modes = ("perception",)

    def __post_init__(self) -> None:
        if self.screens < 1:
            raise ValueError(f"screens must be >= 1, got {self.screens}")

    @property
    def source(self) -> str:
        if self.scratchworld:
            return f"ScratchWorld visual perception benchmark at {self.scratchworld}"
        return f"seed {self.seed}, {self.screens} scenes"

    def select(
        self, categories: Sequence[str] | None = None, task_ids: Sequence[str] | None = None
    ) -> list[Any]:
        from scratch_gym.perception.items import QuestionSlot, question_slots

        if self.scratchworld:
            from scratch_gym.scratchworld.perception import ID_PREFIX, load_items

            items = list(load_items(self.scratchworld))
            return select_among(items, categories, task_ids, id_prefix=ID_PREFIX)
        slots = question_slots(self.seed, self.screens)
        # a slot id names its own seed and scene, beyond this suite's screens too
        for entry in task_ids or ():
            try:
                slots.append(QuestionSlot.from_id(entry))
            except ValueError:
                pass  # a category, "all", or unknown: the vocabulary says which
        return select_among(list({s.id: s for s in slots}.values()), categories, task_ids)

    def load(self, task_id: str) -> Any:
        from scratch_gym.perception.items import QuestionSlot

        if self.scratchworld:
            from scratch_gym.scratchworld.perception import load_item

            return load_item(self.scratchworld, task_id)
        return QuestionSlot.from_id(task_id)

    def make_env(self, mode: str, env_spec: Any) -> Any:
        from scratch_gym.envs.perception import PerceptionEnv

        self.check_mode(mode)
        if self.scratchworld:
            return PerceptionEnv(scratchworld=self.scratchworld, render_mode="rgb_array")
        return PerceptionEnv(seed=self.seed, screens=self.screens, render_mode="rgb_array")

    def record_fields(self, mode: str) -> dict[str, Any]:
        return {"benchmark": SCRATCHWORLD} if self.scratchworld else {}

    def judge(self, task: Any, info: dict[str, Any], action: Any = None) -> dict[str, Any]:
        correct = bool(info.get("correct", False))
        out = {
            "success": correct,
            "psr": float(correct),
            "correct": correct,
            "question": info.get("kind"),
            "subtype": info.get("subtype"),
            "question_id": info.get("id"),
        }
        if self.scratchworld:  # what ScratchWorld's answers file keeps of an item
            out |= {"tag": getattr(task, "tag", None), "given": info.get("given")}
        return out

    def report(self, records: list[dict[str, Any]]) -> str:
        ours, theirs = _split(records)
        parts = []
        if ours or not theirs:
            parts.append("Visual Perception QA (accuracy %)\n" + perception_table(ours))
        if theirs:
            parts.append(scratchworld_tables(theirs))
        return "\n\n".join(parts)

    def figures(self, records: list[dict[str, Any]]) -> dict[str, Any]:
        mine = [r for r in records if r.get("mode") == "perception"]
        out: dict[str, Any] = {"accuracy": _mean(r.get("correct") for r in mine)}
        out["by_kind"] = {
            k: _mean(r.get("correct") for r in mine if r.get("question") == k)
            for k in PERCEPTION_KINDS
        }
        _, theirs = _split(mine)
        if theirs:
            scores = scratchworld_scores(theirs).figures()
            out |= {
                "items": len({r.get("task") for r in theirs}),
                "tags": len(scores["by_tag"]),
                "by_type": scores["by_type"],
                "by_tag": scores["by_tag"],
            }
        return out


SCRATCHWORLD = "scratchworld"  # the ``benchmark`` field of the records of ScratchWorld's items


def _split(records: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Perception records of the built-in questions, and of ScratchWorld's items."""
    records = [r for r in records if r.get("mode") == "perception"]
    theirs = [r for r in records if r.get("benchmark") == SCRATCHWORLD]
    return [r for r in records if r.get("benchmark") != SCRATCHWORLD], theirs


def scratchworld_scores(records: list[dict[str, Any]]) -> Any:
    """Records of ScratchWorld's items as its results script counts them, by the tag each record's
    ``category`` names (so an episode lost to an error, whose record holds no answer, is a wrong
    answer under its tag here; ScratchWorld's runner leaves such an item out of its tables)."""
    from scratch_gym.scratchworld.perception import TAGS
    from scratch_gym.scratchworld.perception_scores import Scores

    scores = Scores({}, {})
    for r in records:
        tag = str(r.get("category"))
        task_type = TAGS[tag][0] if tag in TAGS else "unknown"
        scores.add(task_type, tag, bool(r.get("correct")))
    return scores


def scratchworld_tables(records: list[dict[str, Any]]) -> str:
    """Per agent, ScratchWorld's two tables (per task type with ALL, per tag)."""
    parts = []
    for agent in dict.fromkeys(r["agent"] for r in records):
        mine = [r for r in records if r["agent"] == agent]
        infra = sum(not is_counted(r) for r in mine)
        title = f"ScratchWorld Visual Perception: {agent} ({len(mine)} items"
        title += f", {infra} lost to infrastructure errors, counted wrong)" if infra else ")"
        parts.append(f"{title}\n{scratchworld_scores(mine).markdown()}")
    return "\n\n".join(parts)


def _mean(values: Any) -> float | None:
    vals = [float(bool(v)) for v in values]
    return sum(vals) / len(vals) if vals else None


def perception_table(records: Iterable[dict[str, Any]]) -> str:
    """Perception runs (records with mode ``perception``, ``question`` kind, ``correct``):
    accuracy for connection, existence, field and overall, per agent, over every question asked
    (an infrastructure error is a wrong answer, and counted in ``infra``)."""
    records = [r for r in records if r.get("mode") == "perception"]
    rows = []
    for agent in dict.fromkeys(r["agent"] for r in records):
        mine = [r for r in records if r["agent"] == agent]
        row: list[Any] = [agent]
        for kind in PERCEPTION_KINDS:
            row.append(_pct(_mean(r.get("correct") for r in mine if r.get("question") == kind)))
        row += [_pct(_mean(r.get("correct") for r in mine)), len(mine)]
        rows.append([*row, sum(not is_counted(r) for r in mine)])
    headers = ["agent", "connection", "existence", "field", "overall", "questions", "infra"]
    return table(headers, rows)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"
