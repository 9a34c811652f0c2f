"""ScratchWorld's composite observation: ``get_blocks_pseudocode``'s text and ``idxToBlock``.

Their agents read the editing target's scripts in this text (their prompt describes it) and name
blocks by its ``#<index>``::

    #1 [top] event_whenflagclicked
    #2 sensing_askandwait
    - input QUESTION: "What is your name?" (text)
    #3 looks_sayforsecs
    - input MESSAGE:
      #4 sensing_answer
    - input SECS: 2 (math_number)

* scripts in the VM's script order, each followed by an empty line; only the blocks of their
  catalogue (:data:`INDEXED`) get an index, others are left out (a script whose top block is not
  in it is left out whole; a reporter that is not in it shows as a literal);
* blocks are numbered depth first as printed: a block, the blocks in its inputs, its substacks
  (``- SUBSTACK:`` / ``- SUBSTACK2:``, one indent deeper), then the next block at the same depth;
* a block's fields are ``- field NAME: <JSON value>``, its inputs ``- input NAME: <literal>
  (<shadow opcode>)`` (text literals in double quotes) or ``- input NAME:`` followed by the
  indented block in it, or nothing for an empty slot; menus add ``{choices: {...}}`` with the
  dropdown's labels.

``idxToBlock`` maps each index (as a string) to the block's ``id``, ``opcode``, ``position`` and
``boundingBox`` in workspace units. :func:`scratchworld_pseudocode` is a pure function of the
page's view (``page.bridge.composite_scratchworld_view()``), so the same blocks always get the same
numbers.
"""

from __future__ import annotations

import json
import math
from typing import Any

# The blocks their catalogue lists (the only ones numbered), by category.
INDEXED: frozenset[str] = frozenset(
    f"{prefix}_{name}"
    for prefix, names in {
        "control": "start_as_clone repeat repeat_until forever wait wait_until if if_else stop "
        "create_clone_of delete_this_clone",
        "data": "variable setvariableto changevariableby showvariable hidevariable listcontents "
        "addtolist deleteoflist deletealloflist insertatlist replaceitemoflist itemoflist "
        "itemnumoflist lengthoflist listcontainsitem showlist hidelist",
        "event": "whenflagclicked whenkeypressed whenthisspriteclicked whenbackdropswitchesto "
        "whengreaterthan whenbroadcastreceived broadcast broadcastandwait",
        "looks": "say sayforsecs think thinkforsecs show hide switchcostumeto nextcostume "
        "switchbackdropto nextbackdrop changeeffectby seteffectto cleargraphiceffects "
        "changesizeby setsizeto gotofrontback goforwardbackwardlayers size costumenumbername "
        "backdropnumbername",
        "motion": "movesteps gotoxy goto turnright turnleft pointindirection pointtowards "
        "glidesecstoxy glideto ifonedgebounce setrotationstyle changexby setx changeyby sety "
        "xposition yposition direction",
        "operator": "add subtract multiply divide random mod round mathop join letter_of length "
        "lt equals gt and or not contains",
        "sensing": "resettimer setdragmode askandwait timer mousex mousey dayssince2000 current "
        "mousedown keypressed touchingobject touchingcolor coloristouchingcolor distanceto of "
        "loudness answer username",
        "sound": "play playuntildone stopallsounds seteffectto changeeffectby cleareffects "
        "setvolumeto changevolumeby volume",
    }.items()
    for name in names.split()
)
NUMBER_SHADOWS = frozenset(
    {"math_number", "math_positive_number", "math_integer", "math_whole_number", "math_angle"}
)
# Slots shown even while the VM holds nothing for them.
ALWAYS_INPUTS = {
    "control_repeat_until": ("CONDITION",),
    "control_wait_until": ("CONDITION",),
    "control_if": ("CONDITION",),
    "control_if_else": ("CONDITION",),
    "operator_and": ("OPERAND1", "OPERAND2"),
    "operator_or": ("OPERAND1", "OPERAND2"),
    "operator_not": ("OPERAND",),
}
ALWAYS_SUBSTACKS = {
    "control_forever": ("SUBSTACK",),
    "control_if": ("SUBSTACK",),
    "control_if_else": ("SUBSTACK", "SUBSTACK2"),
}
SPECIAL_VALUES = {
    "mouse-pointer": "_mouse_",
    "random position": "_random_",
    "edge": "_edge_",
    "Stage": "_stage_",
    "myself": "_myself_",
    **{k: k for k in ("space", "up arrow", "down arrow", "right arrow", "left arrow")},
    **{k: k for k in ("enter", "any", "x position", "y position", "direction", "costume #")},
    **{k: k for k in ("costume name", "size", "volume", "backdrop #", "backdrop name")},
    "year": "YEAR",
    "month": "MONTH",
    "date": "DATE",
    "day of week": "DAYOFWEEK",
    "hour": "HOUR",
    "minute": "MINUTE",
    "second": "SECOND",
}


def js_text(value: Any) -> str:
    """``String(value)`` as JavaScript writes it (integral floats without ``.0``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return str(int(value))
    if value is None:
        return "null"
    return str(value)


def js_json(value: Any) -> str:
    """``JSON.stringify(value)``: compact, non-ASCII kept, integral floats as integers."""

    def plain(v: Any) -> Any:
        if isinstance(v, float) and math.isfinite(v) and v.is_integer():
            return int(v)
        if isinstance(v, dict):
            return {k: plain(x) for k, x in v.items()}
        if isinstance(v, list):
            return [plain(x) for x in v]
        return v

    return json.dumps(plain(value), ensure_ascii=False, separators=(",", ":"))


def _field_value(field: Any) -> Any:
    if isinstance(field, dict):
        return field.get("value") or field.get("id") or ""
    return field


class _Writer:
    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        self.blocks: dict[str, Any] = view["blocks"]
        self.options: dict[str, dict[str, list[Any]]] = view.get("options") or {}
        self.lines: list[str] = []
        self.index_of: dict[str, int] = {}
        self.idx_to_block: dict[str, dict[str, Any]] = {}

    # -- numbering -----------------------------------------------------------------------------
    def numbered(self, bid: str | None) -> int | None:
        block = self.blocks.get(bid) if bid else None
        if block is None or block.get("opcode") not in INDEXED:
            return None
        if bid not in self.index_of:
            index = len(self.index_of) + 1
            self.index_of[bid] = index
            self.idx_to_block[str(index)] = self.entry(bid, block["opcode"])
        return self.index_of[bid]

    def entry(self, bid: str, opcode: str) -> dict[str, Any]:
        where = (self.view.get("boxes") or {}).get(bid)
        position = box = None
        if where:
            position = {"x": where["x"], "y": where["y"]}
            b = where.get("box")
            if b:
                box = {**b, "width": b["right"] - b["left"], "height": b["bottom"] - b["top"]}
        return {"id": bid, "opcode": opcode, "position": position, "boundingBox": box}

    # -- choices -------------------------------------------------------------------------------
    def choices(self, bid: str, block: dict[str, Any], name: str) -> dict[str, list[Any]] | None:
        labels = [x for x in (self.options.get(bid) or {}).get(name) or [] if x]
        if labels:
            return {name.lower().replace("_", "") + "Options": labels}
        return self.fallback_choices(block["opcode"], name)

    def fallback_choices(self, opcode: str, name: str) -> dict[str, list[Any]] | None:
        """The choices of a field whose block the workspace does not show."""
        names = self.view.get("names") or {}
        if name == "VARIABLE" and opcode.startswith("data_"):
            return {"variables": sorted({*names["variables"], *names["stage_variables"]})}
        if name == "LIST" and opcode.startswith("data_"):
            return {"lists": sorted({*names["lists"], *names["stage_lists"]})}
        if name == "COSTUME":
            return {"costumes": [c["name"] for c in self.view["costumes"]]}
        if name == "SOUND_MENU":
            return {"sounds": [s["name"] for s in self.view["sounds"]]}
        if name == "BACKDROP":
            return {"backdrops": [c["name"] for c in self.view["backdrops"]]}
        if name == "CURRENTMENU":
            return {"timeOptions": ["year", "month", "date", "day of week", "hour", "minute", "second"]}  # fmt: skip
        return None

    # -- lines ---------------------------------------------------------------------------------
    def fields(self, bid: str, block: dict[str, Any], pad: str) -> None:
        for name, field in (block.get("fields") or {}).items():
            line = f"{pad}- field {name}: {js_json(_field_value(field))}"
            choices = self.choices(bid, block, name)
            if choices:
                line += f" {{choices: {js_json(choices)}}}"
            self.lines.append(line)

    def literal(self, block: dict[str, Any]) -> str | None:
        fields = block.get("fields") or {}
        opcode = block["opcode"]
        key = {"text": "TEXT", "colour_picker": "COLOUR"}.get(opcode)
        if opcode in NUMBER_SHADOWS:
            key = "NUM"
        if key is not None:
            if key not in fields:
                return None
            field = fields[key]
            value = js_text(field.get("value") if isinstance(field, dict) else field)
            return f'"{value}"' if key == "TEXT" else value
        if not fields:
            return None
        first = next(iter(fields.values()))
        return js_text(first.get("value") if isinstance(first, dict) else first)

    def inputs(self, block: dict[str, Any], pad: str, depth: int) -> None:
        names = [n for n in (block.get("inputs") or {}) if not n.startswith("SUBSTACK")]
        names += [n for n in ALWAYS_INPUTS.get(block["opcode"], ()) if n not in names]
        for name in names:
            held = ((block.get("inputs") or {}).get(name) or {}).get("block")
            child = self.blocks.get(held) if held else None
            if not held:
                self.lines.append(f"{pad}- input {name}:")
            elif child is not None and child.get("opcode") in INDEXED:
                self.lines.append(f"{pad}- input {name}:")
                self.reporter(held, depth + 1)
            else:
                child = child or {"opcode": "unknown", "fields": {}}
                value = self.literal(child)
                shown = (
                    f"{value} ({child['opcode']})" if value is not None else f"({child['opcode']})"
                )
                line = f"{pad}- input {name}: {shown}"
                merged: dict[str, list[Any]] = {}
                for field in child.get("fields") or {}:
                    merged.update(self.choices(held, child, field) or {})
                if merged:
                    line += f" {{choices: {js_json(merged)}}}"
                self.lines.append(line)

    def reporter(self, bid: str, depth: int) -> None:
        pad = "  " * depth
        block = self.blocks[bid]
        self.lines.append(f"{pad}#{self.numbered(bid)} {block['opcode']}")
        self.fields(bid, block, pad)
        self.inputs(block, pad, depth)

    def substacks(self, bid: str, block: dict[str, Any], pad: str, depth: int) -> None:
        shown = ALWAYS_SUBSTACKS.get(block["opcode"], ())
        for name in ("SUBSTACK", "SUBSTACK2"):
            first = ((block.get("inputs") or {}).get(name) or {}).get("block")
            if first or name in shown:
                self.lines.append(f"{pad}- {name}:")
            if first:
                self.stack(first, depth + 1)

    def body(self, bid: str, depth: int) -> None:
        block = self.blocks[bid]
        pad = "  " * depth
        self.fields(bid, block, pad)
        self.inputs(block, pad, depth)
        self.substacks(bid, block, pad, depth)

    def stack(self, bid: str | None, depth: int) -> None:
        while bid:
            block = self.blocks.get(bid)
            if block is None:
                return
            index = self.numbered(bid)
            if index is not None:
                self.lines.append(f"{'  ' * depth}#{index} {block['opcode']}")
                self.body(bid, depth)
            bid = block.get("next")

    def scripts(self) -> None:
        for top in self.view["scripts"]:
            index = self.numbered(top)
            if index is None:
                continue
            block = self.blocks[top]
            self.lines.append(f"#{index} [top] {block['opcode']}")
            self.body(top, 0)
            self.stack(block.get("next"), 0)
            self.lines.append("")


def _scoped(view: dict[str, Any]) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    variables: list[dict[str, str]] = []
    lists: list[dict[str, str]] = []
    seen: set[str] = set()
    for owned, scope in ((view["variables"], "sprite"), (view["stage_variables"], "all")):
        for v in owned:
            if v["id"] in seen:
                continue
            seen.add(v["id"])
            (lists if v["type"] == "list" else variables).append(
                {"name": v["name"], "scope": scope}
            )
    for items in (variables, lists):
        items.sort(key=lambda e: (e["name"].casefold(), e["name"]))
    return variables, lists


def _ids(owned: list[dict[str, Any]], names: list[str], want_list: bool) -> dict[str, str]:
    out: dict[str, str] = {}
    for name in names:
        for v in owned:
            if v["name"] == name and (v["type"] == "list") == want_list:
                out[name] = v["id"]
                break
    return out


def scratchworld_pseudocode(view: dict[str, Any]) -> dict[str, Any]:
    """``get_blocks_pseudocode``'s data from the page's view (see module doc)."""
    writer = _Writer(view)
    writer.scripts()
    target = view["target"]
    names = view["names"]
    own = view["variables"]
    stage_own = own if target["is_stage"] else view["stage_variables"]
    sprites = sorted(t["name"] for t in view["targets"] if not t["is_stage"] and t["id"] != target["id"])  # fmt: skip
    sprite_ids = {t["name"]: t["id"] for t in view["targets"] if not t["is_stage"]}
    assets = {k: {a["name"]: a["id"] or a["name"] for a in view[k]} for k in ("costumes", "sounds", "backdrops")}  # fmt: skip
    choices = {
        "variables": names["variables"],
        "lists": names["lists"],
        "costumes": [c["name"] for c in view["costumes"]],
        "sounds": [s["name"] for s in view["sounds"]],
        "sprites": sprites,
        "backdrops": [c["name"] for c in view["backdrops"]],
        "stageVariables": names["stage_variables"],
        "stageLists": names["stage_lists"],
    }
    mappings = {
        "variables": _ids(own, names["variables"], False),
        "lists": _ids(own, names["lists"], True),
        **assets,
        "sprites": {n: sprite_ids[n] for n in sprites},
        "stageVariables": _ids(stage_own, names["stage_variables"], False),
        "stageLists": _ids(stage_own, names["stage_lists"], True),
        "specialOptions": dict(SPECIAL_VALUES),
    }
    variables, lists = _scoped(view)
    return {
        "pseudocode": "\n".join(writer.lines),
        "idxToBlock": writer.idx_to_block,
        "targetName": target["name"],
        "targetId": target["id"],
        "availableChoices": choices,
        "availableTargets": [
            {"id": t["id"], "name": t["name"], "isStage": t["is_stage"]} for t in view["targets"]
        ],
        "valueToIdMappings": mappings,
        "targetVariables": variables,
        "targetLists": lists,
    }
