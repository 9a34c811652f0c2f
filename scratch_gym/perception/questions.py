"""Perception questions about one rendered scene, with answers read from the editor.

Three kinds (as in ScratchWorld's perception study):

* ``connection``: is block B attached directly below block A? (yes/no; the no cases are scripts laid
  a few units apart, which look attached). Answer from the VM: ``A.next == B``.
* ``existence``: is there a block ``D`` in the code area? (yes/no; no cases are a confusable block,
  i.e. another value or the mirror opcode such as turn left/right, or a block that is in the project
  but hidden under another one). Visibility from the drawn workspace, descriptions from the VM.
* ``field``: what is written in the slot marked ``?`` of block ``D``? Answer from the VM's field
  value (menu values shown by their display names). Scored by equivalence (:func:`is_correct`).

Block descriptions are the scratchblocks text of the block alone, rendered from the VM's blocks.
"""

from __future__ import annotations

import copy
import math
import random
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from scratch_gym.editor.page import EditorPage
from scratch_gym.program import catalogue, render_scripts

KINDS = ("connection", "existence", "field")
CANVAS = (313.0, 93.0, 780.0, 720.0)  # the code canvas on screen at the fixed view
FULLY_VISIBLE = 0.95
MASK = "987654321"  # a number, so that number slots keep their round brackets
MIRRORS = {
    "motion_turnright": "motion_turnleft",
    "motion_changexby": "motion_changeyby",
    "motion_setx": "motion_sety",
    "looks_sayforsecs": "looks_thinkforsecs",
    "looks_say": "looks_think",
    "looks_show": "looks_hide",
    "looks_changesizeby": "looks_setsizeto",
    "sound_changevolumeby": "sound_setvolumeto",
}
MIRRORS.update({v: k for k, v in list(MIRRORS.items())})


@dataclass
class PerceptionQuestion:
    """One question; ``answer`` is the ground truth, ``evidence`` what it was read from."""

    id: str
    scene: int
    kind: str
    question: str
    answer: str
    subtype: str = ""
    evidence: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def normalise_yes_no(text: str) -> str:
    return re.sub(r"[\s.!]+$", "", str(text).strip()).lower()


# Scratch's special menu values and the names its menus show (ScratchWorld's field questions
# name dropdown values as shown: `random position`, `mouse-pointer`, `myself`, `up arrow`)
MENU_NAMES = {
    "_random_": "random position",
    "_mouse_": "mouse-pointer",
    "_myself_": "myself",
    "_stage_": "stage",
    "_edge_": "edge",
}
QUOTES = ("``", '""', "''", "[]", "()", "“”", "‘’")


def normalise_field(text: str) -> str:
    """A field answer without outer spaces, one pair of enclosing quotes, backticks or brackets,
    or a final full stop."""
    text = str(text).strip()
    if text.endswith(".") and not _number(text):
        text = text[:-1].rstrip()
    if len(text) >= 2 and text[0] + text[-1] in QUOTES:
        text = text[1:-1].strip()
    return text


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def normalise_dropdown(text: str) -> str:
    """A dropdown value as its menu shows it: Scratch's special values by their names,
    case-folded, inner spaces collapsed (``" Up  Arrow "`` -> ``up arrow``)."""
    text = " ".join(normalise_field(text).split()).casefold()
    return MENU_NAMES.get(text, text)


def field_equivalent(answer: str, truth: str, subtype: str = "") -> bool:
    """Equivalence of a field answer, as the paper scores field questions: numbers compared as
    numbers (``10`` = ``10.0`` = ``+10``); dropdown values normalised (:func:`normalise_dropdown`);
    other text exact (case kept), apart from outer spaces and enclosing quotes."""
    a, t = normalise_field(answer), normalise_field(truth)
    x, y = _number(a), _number(t)
    if x is not None and y is not None:
        return math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-9)
    if subtype == "dropdown":
        return normalise_dropdown(a) == normalise_dropdown(t)
    return a == t


def is_correct(question: PerceptionQuestion | dict[str, Any], answer: str) -> bool:
    """Case-insensitive yes/no (a final full stop or ``!`` aside); field answers by equivalence
    (:func:`field_equivalent`), not exact text."""
    q = question if isinstance(question, dict) else question.to_dict()
    if q["kind"] == "field":
        return field_equivalent(answer, q["answer"], q.get("subtype", ""))
    return normalise_yes_no(answer) == q["answer"]


# -- descriptions of VM blocks ---------------------------------------------------------------------
def _subtree(blocks: dict[str, Any], bid: str) -> dict[str, Any]:
    """The block with its shadow inputs only, as a lone top-level block."""
    out: dict[str, Any] = {}
    block = copy.deepcopy(blocks[bid])
    block.update(next=None, parent=None, topLevel=True, x=0, y=0)
    out[bid] = block
    for name, inp in list(block.get("inputs", {}).items()):
        child = inp.get("block")
        if child and blocks.get(child, {}).get("shadow"):
            out[child] = copy.deepcopy(blocks[child])
        else:
            del block["inputs"][name]
    return out


def describe(blocks: dict[str, Any], bid: str, mask: str | None = None) -> str:
    """scratchblocks text of block ``bid`` alone; ``mask`` names an input/field shown as ``?``."""
    sub = _subtree(blocks, bid)
    if mask is None:
        return render_scripts(sub).strip()
    spec = catalogue.get(blocks[bid]["opcode"])
    numeric = spec is not None and any(a.name == mask and a.numeric for a in spec.args)
    _set_slot(sub, bid, mask, MASK if numeric else "?")
    return render_scripts(sub).strip().replace(MASK, "?")


def slots(blocks: dict[str, Any], bid: str) -> dict[str, str]:
    """The block's slot texts as shown on screen (menu values by display name), by input/field."""
    block = blocks[bid]
    spec = catalogue.get(block["opcode"])
    out = {}
    for name, fld in block.get("fields", {}).items():
        out[name] = _display(spec, name, str(fld["value"]))
    for name, inp in block.get("inputs", {}).items():
        child = blocks.get(inp.get("block") or "", {})
        if child.get("shadow") and child.get("fields"):
            value = str(next(iter(child["fields"].values()))["value"])
            out[name] = _display(spec, name, value)
    return out


def _display(spec: Any, name: str, value: str) -> str:
    if spec is None:
        return value
    try:
        return spec.arg(name).display_of(value)
    except (KeyError, ValueError):
        return value


def _set_slot(sub: dict[str, Any], bid: str, name: str, value: str) -> None:
    block = sub[bid]
    if name in block.get("fields", {}):
        block["fields"][name]["value"] = value
        return
    child = sub[block["inputs"][name]["block"]]
    key = next(iter(child["fields"]))
    child["fields"][key]["value"] = value


# -- reading a rendered scene ----------------------------------------------------------------------
@dataclass
class SceneState:
    """What the editor shows: the VM's blocks and Blockly's drawn canvas blocks."""

    vm: dict[str, dict[str, Any]]
    drawn: dict[str, dict[str, Any]]

    @classmethod
    def read(cls, page: EditorPage) -> SceneState:
        vm = page.bridge.vm_blocks("Sprite1")
        drawn = {b["id"]: b for b in page.bridge.elements_block_info()}
        return cls(vm, drawn)

    def stack_ids(self) -> list[str]:
        return [i for i, b in self.vm.items() if not b.get("shadow")]

    def fully_visible(self, bid: str) -> bool:
        d = self.drawn.get(bid)
        if d is None or d["visible"] < FULLY_VISIBLE:
            return False
        x0, y0, x1, y1 = CANVAS
        return d["x"] >= x0 and d["y"] >= y0 and d["x"] + d["w"] <= x1 and d["y"] + d["h"] <= y1

    def hidden(self, bid: str) -> bool:
        d = self.drawn.get(bid)
        return d is not None and d["visible"] == 0.0


def make_questions(
    state: SceneState, scene: int, rng: random.Random, per_kind: int = 1
) -> list[PerceptionQuestion]:
    """Candidate questions of every kind for one scene, ``per_kind`` of each subtype at most."""
    ids = state.stack_ids()
    text = {i: describe(state.vm, i) for i in ids}
    counts: dict[str, int] = {}
    for t in text.values():
        counts[t] = counts.get(t, 0) + 1
    unique = [i for i in ids if counts[text[i]] == 1]
    visible = [i for i in unique if state.fully_visible(i)]
    out: list[PerceptionQuestion] = []

    def add(kind: str, subtype: str, question: str, answer: str, **evidence: Any) -> None:
        out.append(PerceptionQuestion(f"{scene}-{kind}-{subtype}-{len(out)}", scene, kind, question, answer,
                            subtype, evidence))  # fmt: skip

    # connection: attached pairs, and near misses (a script's top just below another's end)
    pairs = [(a, state.vm[a]["next"]) for a in visible if state.vm[a].get("next") in visible]
    for a, b in rng.sample(pairs, min(per_kind, len(pairs))):
        add("connection", "attached", _connection_q(text[a], text[b]), "yes", a=a, b=b)
    misses = []
    for a in visible:
        for b in visible:
            if state.vm[b].get("parent") is None and state.vm[a].get("next") is None and a != b:
                da, db = state.drawn[a], state.drawn[b]
                if abs(da["x"] - db["x"]) < 1 and 0 <= db["y"] - (da["y"] + da["h"]) + 6 <= 14:
                    misses.append((a, b))
    for a, b in rng.sample(misses, min(per_kind, len(misses))):
        add("connection", "near_miss", _connection_q(text[a], text[b]), "no", a=a, b=b)
    apart = [(a, b) for a in visible for b in visible
             if state.vm[b].get("parent") is None and state.drawn[a]["root"] != b and a != b]  # fmt: skip
    for a, b in rng.sample(apart, min(per_kind, len(apart))):
        add("connection", "separate", _connection_q(text[a], text[b]), "no", a=a, b=b)

    # existence: a visible block; a confusable one that is nowhere; a block hidden under another
    for bid in rng.sample(visible, min(per_kind, len(visible))):
        add(
            "existence", "visible", _existence_q(text[bid]), "yes", block=bid, description=text[bid]
        )
    confusables = [c for c in (_confusable(state.vm, i, rng) for i in visible) if c]
    confusables = [c for c in confusables if c not in counts]
    for desc in rng.sample(confusables, min(per_kind, len(confusables))):
        add("existence", "confusable", _existence_q(desc), "no", description=desc)
    hidden = [i for i in unique if state.hidden(i)]
    for bid in rng.sample(hidden, min(per_kind, len(hidden))):
        add(
            "existence", "occluded", _existence_q(text[bid]), "no", block=bid, description=text[bid]
        )

    # field: a slot of a visible block whose masked description is unique
    masked: dict[str, list[tuple[str, str]]] = {}
    for bid in ids:
        for name in slots(state.vm, bid):
            masked.setdefault(describe(state.vm, bid, mask=name), []).append((bid, name))
    fields = [(d, v[0]) for d, v in masked.items() if len(v) == 1 and v[0][0] in visible]
    for desc, (bid, name) in rng.sample(fields, min(per_kind, len(fields))):
        value = slots(state.vm, bid)[name]
        add("field", _slot_kind(state.vm, bid, name), _field_q(desc), value, block=bid, slot=name)
    return out


def _connection_q(a: str, b: str) -> str:
    return (
        f"In the code area, is the block `{b}` attached directly below the block `{a}` "
        "(snapped together in one script)? Answer yes or no."
    )


def _existence_q(desc: str) -> str:
    return (
        f"Is there a `{desc}` block in the code area (the scripts canvas, not the block palette)? "
        "Answer yes or no."
    )


def _field_q(desc: str) -> str:
    return (
        f"In the code area, the block `{desc}` has one slot shown here as ?. "
        "What is written in that slot? Answer with the exact text."
    )


def _slot_kind(vm: dict[str, Any], bid: str, name: str) -> str:
    block = vm[bid]
    if name in block.get("fields", {}):
        return "dropdown"
    child = vm[block["inputs"][name]["block"]]
    return "dropdown" if child["opcode"].endswith("menu") else "value"


def _confusable(vm: dict[str, Any], bid: str, rng: random.Random) -> str | None:
    """A description close to block ``bid``'s: its mirror opcode, or one slot changed."""
    block = vm[bid]
    sub = _subtree(vm, bid)
    names = list(slots(vm, bid))
    if block["opcode"] in MIRRORS and (not names or rng.random() < 0.5):
        _mirror(sub[bid], MIRRORS[block["opcode"]])
        return render_scripts(sub).strip()
    if not names:
        return None
    name = rng.choice(names)
    old = slots(vm, bid)[name]
    new = _other_value(old, rng)
    _set_slot(sub, bid, name, new)
    return render_scripts(sub).strip()


def _mirror(block: dict[str, Any], opcode: str) -> None:
    """Turn ``block`` into ``opcode``, its inputs renamed by position (DX -> DY, X -> Y, ...)."""
    old = [a.name for a in catalogue.block(block["opcode"]).args]
    new = [a.name for a in catalogue.block(opcode).args]
    renames = dict(zip(old, new, strict=True))
    block["opcode"] = opcode
    block["inputs"] = {
        renames.get(k, k): {**v, "name": renames.get(k, k)} for k, v in block["inputs"].items()
    }


def _other_value(old: str, rng: random.Random) -> str:
    try:
        number = float(old)
    except ValueError:
        from scratch_gym.perception.scenes import MENUS, WORDS

        words = next((m for m in MENUS if old in m), WORDS)
        return rng.choice([w for w in words if w != old])
    delta = rng.choice([1, 2, 5, 10, -1, -5])
    value = number + delta
    return str(int(value)) if value.is_integer() else str(value)
