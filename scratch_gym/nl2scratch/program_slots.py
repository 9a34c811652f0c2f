"""Program-side SAC slots, read from scratchblocks lines (standard or the NL2Scratch dialect).

Choices (the paper leaves room for them):

* **Event**: the first hat line (``when ...``) gives ``event_type`` — ``green_flag``,
  ``key_press``, ``sprite_clicked``, ``stage_clicked``, ``broadcast_receive``,
  ``backdrop_switch``, ``clone_start`` or ``other_hat`` — and ``event_target`` for the key, message
  or backdrop. Received messages and hat backdrops also count as broadcast / backdrop names.
* **Actions**: one label per stack block from the line's prefix (see ``ACTION_PREFIXES``). The
  motion blocks ``set/change x|y`` get their own labels (``set_x``, ``change_y``, ...) rather than
  counting as variables; ``wait until`` counts as ``wait``. C-blocks and ``else``/``end`` are not
  actions.
* **Loops**: ``forever``, ``repeat_until`` and ``repeat``; a literal repeat count goes to
  ``loop_counts``.
* **Conditions**: read inside ``if``, ``wait until`` and ``repeat until``: ``touching`` (sprite,
  colour or colour-touching-colour), ``edge`` (touching the edge, which is also ``touching``),
  ``key_press``, ``mouse_down``, ``answer``, ``equals``, ``greater_than``, ``less_than``.
* **Names**: variables (``set``/``change``/``show variable``/``hide variable``), costumes,
  backdrops and broadcast messages from their bracketed arguments, normalised with
  :func:`~scratch_gym.nl2scratch.text.normalize_name`.
* **Numbers**: standalone numbers of each line after masking identifiers: every dropdown
  argument (``(space v)``, ``[score v]``) and square-bracket name that is not itself a number,
  colour codes of ``touching color``, sound names, and the program's variable names wherever they
  appear as reporters. What remains are literals (``(10)``, ``(90 v)``) and numbers inside text
  literals (``say (I have 3 lives)``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scratch_gym.nl2scratch.slots import Slots
from scratch_gym.nl2scratch.text import is_number, normalize_name, program_lines, standalone_numbers

ACTION_PREFIXES: tuple[tuple[str, str], ...] = (
    (r"show variable\b", "show_variable"),
    (r"hide variable\b", "hide_variable"),
    (r"show list\b", "show_list"),
    (r"hide list\b", "hide_list"),
    (r"show\b", "show"),
    (r"hide\b", "hide"),
    (r"move\b", "move"),
    (r"glide\b", "glide"),
    (r"go to (?:front|back|\[(?:front|back)\b|\((?:front|back)\b)", "go_to_layer"),
    (r"go (?:forward|backward)", "go_to_layer"),
    (r"go to\b", "go_to"),
    (r"turn (?:right|cw|@turnright|↻)", "turn_right"),
    (r"turn (?:left|ccw|@turnleft|↺)", "turn_left"),
    (r"point in direction\b", "point_direction"),
    (r"point towards\b", "point_towards"),
    (r"if on edge,? bounce", "bounce"),
    (r"set rotation style\b", "set_rotation_style"),
    (r"say\b", "say"),
    (r"think\b", "think"),
    (r"wait\b", "wait"),
    (r"broadcast\b", "broadcast"),
    (r"(?:play sound|start sound)\b", "play_sound"),
    (r"play note\b|play drum\b|rest for\b", "play_note"),
    (r"stop all sounds\b", "stop_sounds"),
    (r"ask\b", "ask"),
    (r"set x to\b", "set_x"),
    (r"set y to\b", "set_y"),
    (r"change x by\b", "change_x"),
    (r"change y by\b", "change_y"),
    (r"set size to\b", "set_size"),
    (r"change size by\b", "change_size"),
    (r"set volume to\b", "set_volume"),
    (r"change volume by\b", "change_volume"),
    (r"set tempo to\b|change tempo by\b|set instrument to\b", "music"),
    (r"set \[[^\]]*\] effect to|set \([^)]*\) effect to|set (?:\w+ )?effect to", "set_effect"),
    (
        r"change \[[^\]]*\] effect by|change \([^)]*\) effect by|change (?:\w+ )?effect by",
        "change_effect",
    ),
    (r"clear graphic effects\b", "clear_effects"),
    (r"set pen\b|change pen\b", "pen_setting"),
    (r"set drag mode\b", "set_drag_mode"),
    (r"set\b", "set_variable"),
    (r"change\b", "change_variable"),
    (r"switch costume to\b", "switch_costume"),
    (r"next costume\b", "next_costume"),
    (r"switch backdrop to\b", "switch_backdrop"),
    (r"next backdrop\b", "next_backdrop"),
    (r"create clone of\b", "create_clone"),
    (r"delete this clone\b", "delete_clone"),
    (r"stop\b", "stop"),
    (r"pen down\b", "pen_down"),
    (r"pen up\b", "pen_up"),
    (r"(?:erase all|clear)\b", "erase_all"),
    (r"stamp\b", "stamp"),
    (r"reset timer\b", "reset_timer"),
    (r"add .* to \[", "list_add"),
    (r"delete .* of \[|delete all of\b", "list_delete"),
    (r"insert .* at .* of \[", "list_insert"),
    (r"replace item\b", "list_replace"),
)
_ACTION_RES = tuple((re.compile(pattern), label) for pattern, label in ACTION_PREFIXES)
_CONTROL = re.compile(r"(?:forever|repeat\b|if\b|else\b|end\b|when\b|define\b)")

_ARG_AFTER = {
    "costume": re.compile(r"^switch costume to\s*(?=[\[(])"),
    "backdrop": re.compile(r"^switch backdrop to\s*(?=[\[(])"),
    "broadcast": re.compile(r"^broadcast\s*(?=[\[(])"),
    "variable": re.compile(r"^(?:set|change|show variable|hide variable)\s*(?=\[)"),
}
_COLOR_ARG = re.compile(r"(?:color|colour)\s*(?=[\[(])")
_COLOR_PAIR = re.compile(r"[\[(]\s*#?[-\w]+\s*[\])]\s*is touching\s*[\[(]\s*#?[-\w]+\s*[\])]")
_KEY_ARG = re.compile(r"key\s*[\[(][^\])]*[\])]\s*pressed|when\s*[\[(][^\])]*[\])]\s*key pressed")
_OPERATOR = re.compile(r"[)\]]\s*([<>=])\s*[(\[]")


def group_at(text: str, start: int) -> tuple[str, int]:
    """The content of the bracket group opening at ``text[start]`` and the index after it."""
    pairs = {"(": ")", "[": "]", "<": ">"}
    opener = text[start]
    closer = pairs[opener]
    depth = 0
    for i in range(start, len(text)):
        ch = text[i]
        if ch == opener:
            depth += 1
        elif ch == closer:
            depth -= 1
            if depth == 0:
                return text[start + 1 : i], i + 1
    return text[start + 1 :], len(text)


def _arg_after(line: str, pattern: re.Pattern[str]) -> str | None:
    match = pattern.search(line)
    if not match:
        return None
    content, _ = group_at(line, match.end())
    name = normalize_name(content)
    return name or None


def _event(first: str) -> tuple[str | None, str | None]:
    """(event_type, event_target) of a hat line, lowercase."""
    if not first.startswith("when "):
        return None, None
    if re.match(r"when (?:@greenflag|green flag|flag|⚑)\b.*clicked", first):
        return "green_flag", None
    if re.match(r"when this sprite clicked", first):
        return "sprite_clicked", None
    if re.match(r"when stage clicked", first):
        return "stage_clicked", None
    if re.match(r"when i start as a clone", first):
        return "clone_start", None
    match = re.match(r"when i receive\s*(?=[\[(])", first)
    if match:
        return "broadcast_receive", normalize_name(group_at(first, match.end())[0]) or None
    match = re.match(r"when backdrop switches to\s*(?=[\[(])", first)
    if match:
        return "backdrop_switch", normalize_name(group_at(first, match.end())[0]) or None
    match = re.match(r"when\s*(?=[\[(])", first)
    if match:
        content, end = group_at(first, match.end())
        if first[end:].strip().startswith("key pressed"):
            return "key_press", normalize_name(content) or None
    return "other_hat", None


def action_label(line: str) -> str | None:
    """The action label of one stripped, lowercase stack-block line, or None."""
    if _CONTROL.match(line) and not line.startswith("wait until"):
        return None
    for pattern, label in _ACTION_RES:
        if pattern.match(line):
            return label
    return None


def condition_types(condition: str) -> set[str]:
    """Condition types inside a lowercase boolean expression."""
    found: set[str] = set()
    if re.search(r"touching\b|is touching", condition):
        found.add("touching")
    if re.search(r"touching\s*[\[(]\s*_?edge_?\b", condition):
        found.add("edge")
    if re.search(r"key\s*[\[(].*?pressed\?", condition):
        found.add("key_press")
    if "mouse down?" in condition:
        found.add("mouse_down")
    if re.search(r"\(answer\)", condition):
        found.add("answer")
    for op in _OPERATOR.findall(condition):
        found.add({"=": "equals", ">": "greater_than", "<": "less_than"}[op])
    return found


def _condition_text(line: str) -> str | None:
    match = re.match(r"(?:if|wait until|repeat until|else if)\s*(?=<)", line)
    if not match:
        return None
    # Not group_at: "<(a) > (b)>" holds a ">" that is an operator, not a closing bracket.
    return re.sub(r"\s*then$", "", line[match.end() :])


def _mask_identifiers(line: str, names: Iterable[str]) -> str:
    """``line`` with identifier arguments blanked out, so only number literals remain."""
    out = _COLOR_PAIR.sub(" is touching ", _KEY_ARG.sub(" key ", line))
    for match in list(_COLOR_ARG.finditer(out))[::-1]:
        _, end = group_at(out, match.end())
        out = out[: match.end()] + " " * (end - match.end()) + out[end:]
    # Innermost groups first: dropdowns "(x v)"/"[x v]" and non-numeric "[name]" are identifiers.
    pattern = re.compile(r"[\[(]([^\[\]()]*)[\])]")
    chunks: list[str] = []
    last = 0
    for match in pattern.finditer(out):
        content = match.group(1).strip()
        opener = match.group(0)[0]
        dropdown = bool(re.search(r"\sv$", content))
        bare = re.sub(r"\s+v$", "", content)
        masked = (dropdown or opener == "[") and not is_number(bare)
        if not masked and normalize_name(bare) in names:
            masked = True
        chunks.append(out[last : match.start()])
        chunks.append(" " if masked else f"({bare})")
        last = match.end()
    chunks.append(out[last:])
    return "".join(chunks)


def extract_program_slots(program: str | Iterable[str]) -> Slots:
    """The SAC slots of a program given as scratchblocks text or lines."""
    lines = [line.strip().lower() for line in program_lines(program)]
    event_type: str | None = None
    event_target: str | None = None
    actions: set[str] = set()
    loops: set[str] = set()
    counts: set[str] = set()
    conditions: set[str] = set()
    names: dict[str, set[str]] = {
        k: set() for k in ("variable", "costume", "backdrop", "broadcast")
    }

    for line in lines:
        if line.startswith("when ") and event_type is None:
            event_type, event_target = _event(line)
            if event_type == "broadcast_receive" and event_target:
                names["broadcast"].add(event_target)
            if event_type == "backdrop_switch" and event_target:
                names["backdrop"].add(event_target)
            continue
        if line == "forever" or line.startswith("forever "):
            loops.add("forever")
        elif line.startswith("repeat until"):
            loops.add("repeat_until")
        elif re.match(r"repeat\s*[(\[]", line):
            loops.add("repeat")
            content, _ = group_at(line, line.index(re.search(r"[(\[]", line).group(0)))
            if is_number(content):
                counts.add(standalone_numbers(content)[0])
        label = action_label(line)
        if label:
            actions.add(label)
        cond = _condition_text(line)
        if cond is not None:
            conditions |= condition_types(cond)
        for kind, pattern in _ARG_AFTER.items():
            name = _arg_after(line, pattern)
            if name and not (kind == "variable" and re.search(r"\]\s*effect\b", line)):
                names[kind].add(name)

    numbers: set[str] = set()
    for line in lines:
        all_names = set().union(*names.values())
        numbers.update(standalone_numbers(_mask_identifiers(line, all_names)))

    return Slots(
        event_type=event_type,
        event_target=event_target,
        action_types=frozenset(actions),
        loop_types=frozenset(loops),
        loop_counts=frozenset(counts),
        condition_types=frozenset(conditions),
        numeric_values=frozenset(numbers),
        variable_names=frozenset(names["variable"]),
        costume_names=frozenset(names["costume"]),
        backdrop_names=frozenset(names["backdrop"]),
        broadcast_names=frozenset(names["broadcast"]),
    )


def program_identifiers(program: str | Iterable[str]) -> set[str]:
    """Every normalised identifier argument of a program: dropdowns and square-bracket names."""
    found: set[str] = set()
    for line in program_lines(program):
        for match in _COLOR_ARG.finditer(line):
            found.add(normalize_name(group_at(line, match.end())[0]))
        for match in _COLOR_PAIR.finditer(line):
            found.update(
                normalize_name(c) for c in re.findall(r"[\[(]([^\[\]()]*)[\])]", match.group(0))
            )
        for content in re.findall(r"[\[(]([^\[\]()]*)[\])]", line):
            bare = re.sub(r"\s+v$", "", content.strip())
            if (
                re.search(r"\sv$", content.strip()) or "[" + content + "]" in line
            ) and not is_number(bare):
                name = normalize_name(bare)
                if name:
                    found.add(name)
    return found


@dataclass(frozen=True)
class RobustProgramSlots:
    """The robust protocol's program-side extractor
    (:class:`~scratch_gym.nl2scratch.interfaces.ProgramSlotExtractor`)."""

    def lines(self, program: str | Iterable[str] | None) -> list[str]:
        return program_lines(program)

    def slots(self, lines: Sequence[str]) -> Slots:
        return extract_program_slots(lines)
