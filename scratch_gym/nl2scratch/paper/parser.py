"""Parse success as the paper counts it: the published line-by-line matcher's acceptance.

The published parser (NL2Scratch's ``vm_pseudocode_parser.mjs`` over the storyboard VM's
``pseudocode-parser.js``) reads one trimmed line at a time and accepts a program when every line
matches one of its rules and nothing raises. This module decides the same acceptance without
building blocks, and says which line failed and why. Rules, in the order the matcher tries them:

* ``end`` closes the innermost open C-block (failing when none is open);
* a line starting ``when`` starts a script; only ``when @greenFlag clicked`` (or ``when green flag
  clicked``/``when flag clicked``), ``when this sprite clicked``, ``when backdrop switches to
  [..]``, ``when (K v) key pressed`` and ``when [M v] > (N)`` are known. ``when I receive [..]``
  makes the released code raise (it refers to an undefined variable), so it never parses;
* ``forever``, ``repeat (N)``, ``repeat until <..>``, ``if <..> then`` open C-blocks; ``else`` is
  accepted only directly inside an ``if``; ``if on edge, bounce`` is not accepted;
* other lines must match one of the stack-block patterns of ``STACK_PATTERNS`` or contain
  ``hide`` or ``show`` (those two patterns are unanchored: any line containing them is accepted);
* nothing is accepted before the first ``when`` line; conditions that contain ``contains`` or
  ``is touching color`` without the full pattern, or ``key (..) presse`` without the ``d``, raise.

Regular-expression dots follow JavaScript (no line terminators) and lines are trimmed as
JavaScript trims.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_D = r"[^\n\r\u2028\u2029]"  # JavaScript's "."
_JS_SPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern.replace(".", _D).replace("\\" + _D, "\\."))


HATS = (
    _rx(r"when backdrop switches to \[(.+?)\]"),
    _rx(r"when \((.+?) v\) key pressed"),
    _rx(r"when \[(.+?) v\] > \((.+?)\)"),
)
RECEIVE_HAT = _rx(r"when I receive \[(.+?)\]")
PLAIN_HATS = ("when @greenFlag clicked", "when green flag clicked", "when flag clicked")
REPEAT = _rx(r"repeat\s*\((.+?)\)")
REPEAT_UNTIL = _rx(r"repeat until\s*<(.+?)>")
IF_THEN = _rx(r"if\s*<(.+?)>\s*then")
WAIT_UNTIL = _rx(r"wait until <(.+?)>\Z")
STACK_PATTERNS = tuple(
    _rx(p)
    for p in (
        r"say \[(.+)\]\Z",
        r"say \[(.+)\] for \((.+)\) seconds\Z",
        r"think \[(.+)\]\Z",
        r"think \[(.+)\] for \((.+)\) seconds\Z",
        r"switch costume to \[(.+?)\]\Z",
        r"change \[(.+?) v\] by \((.+?)\)\Z",
        r"set \[(.+?) v\] to \[(.+?)\]\Z",
        r"set \[(.+?) v\] to \((.+?)\)\Z",
        r"point in direction \((.+?)\)\Z",
        r"set x to \((.+?)\)\Z",
        r"set y to \((.+?)\)\Z",
        r"change x by \((.+?)\)\Z",
        r"change y by \((.+?)\)\Z",
        r"go to \((.+?) v\)\Z",
        r"go to x: \((.+)\) y: \((.+)\)\Z",
        r"move \((.+)\) steps\Z",
        r"glide \((.+)\) secs to \((.+) v\)\Z",
        r"glide \((.+)\) secs to x: \((.+)\) y: \((.+)\)\Z",
        r"turn (left|right) \((.+?)\) degrees\Z",
        r"broadcast \[(.+?) v\]\Z",
        r"broadcast \[(.+?) v\] and wait\Z",
        r"create clone of \[(.+?)\]\Z",
        r"delete this clone\Z",
        r"stop \[(all|this script|other scripts in sprite) v\]\Z",
        r"wait \((.+?)\) seconds\Z",
        r"wait until <(.+?)>\Z",
        r"stop all sounds\Z",
        r"play sound \((.+?) v\)\Z",
        r"play sound \\((.+) v\\) until done",
        r"ask (.+) and wait",
    )
)
_KEY_LOOSE = _rx(r"key \((.*) v\) pressed?")
_KEY_STRICT = _rx(r"key \((.*) v\) pressed")
_CONTAINS = _rx(r"\((.+)\) contains \((.+)\)\?")
_COLOR_TOUCH = _rx(r"color \((.+)\) is touching color \((.+)\)\?")


@dataclass(frozen=True)
class ParseCheck:
    """Whether the published parser accepts a program; on failure, the line (1-based) and why."""

    ok: bool
    line: int | None = None
    reason: str = ""

    def __bool__(self) -> bool:
        return self.ok


class _Raises(Exception):
    """The published parser would raise (so the program fails)."""


def js_trim(text: str) -> str:
    """``String.prototype.trim`` of JavaScript."""
    return text.strip(_JS_SPACE)


def _check_condition(text: str) -> None:
    """Raises :class:`_Raises` where the published condition parser raises."""
    text = js_trim(text)
    for joiner in (" or ", " and "):
        if joiner in text:
            left, right = text.split(joiner)[:2]
            _check_condition(left)
            _check_condition(right)
    if _KEY_LOOSE.search(text) and not _KEY_STRICT.search(text):
        raise _Raises("a key condition without 'pressed'")
    if text.startswith("not "):
        _check_condition(text[4:])
    if " contains " in text and not _CONTAINS.search(text):
        raise _Raises("'contains' outside the pattern '(a) contains (b)?'")
    if " is touching color " in text and not _COLOR_TOUCH.search(text):
        raise _Raises("'is touching color' outside the pattern 'color (a) is touching color (b)?'")


def _hat_known(line: str) -> bool:
    if line in PLAIN_HATS or line == "when this sprite clicked" or HATS[0].search(line):
        return True
    if RECEIVE_HAT.search(line):
        raise _Raises("'when I receive [..]' makes the released parser raise")
    return any(p.search(line) for p in HATS[1:])


def paper_parse_check(program: str | None) -> ParseCheck:
    """Acceptance of ``program`` (one string) by the published parser, with the failing line."""
    lines = [(i, js_trim(t)) for i, t in enumerate((program or "").split("\n"), 1)]
    lines = [(i, t) for i, t in lines if t]
    if not lines:
        return ParseCheck(False, None, "empty program")
    stack: list[str] = []
    in_script = False
    for number, line in lines:
        try:
            ok = _accepts(line, stack, in_script)
        except _Raises as exc:
            return ParseCheck(False, number, f"{exc}: {line!r}")
        if line.startswith("when"):
            in_script = True
        if ok is None:
            return ParseCheck(False, number, "'end' without an open C-block")
        if not ok:
            return ParseCheck(False, number, f"no rule of the published parser matches {line!r}")
    if not in_script:
        return ParseCheck(False, lines[0][0], "no 'when' hat line")
    return ParseCheck(True)


def _needs_script(in_script: bool) -> None:
    if not in_script:
        raise _Raises("a C-block before any 'when' hat")


def _accepts(line: str, stack: list[str], in_script: bool) -> bool | None:
    """Whether one line matches (None: an unmatched 'end'); updates the C-block stack."""
    if line == "end":
        if not stack:
            return None
        stack.pop()
        return True
    if line.startswith("when"):
        return _hat_known(line)
    if line == "forever" or REPEAT.match(line):
        _needs_script(in_script)
        stack.append("loop")
        return True
    match = REPEAT_UNTIL.match(line)
    if match:
        _needs_script(in_script)
        _check_condition(match.group(1))
        stack.append("loop")
        return True
    if line.startswith("if"):
        if line == "if on edge, bounce":
            _needs_script(in_script)
        match = IF_THEN.search(line)
        if not match:
            return False
        _needs_script(in_script)
        _check_condition(match.group(1))
        stack.append("if")
        return True
    if line.startswith("else"):
        if stack and stack[-1] == "if":
            stack.append("else")
            return True
        return False
    if line.startswith("go to (random position v)"):
        _needs_script(in_script)
        return True
    if not in_script:
        return False
    match = WAIT_UNTIL.match(line)
    if match:
        _check_condition(match.group(1))
        return True
    # "hide" and "show" are unanchored in the published patterns.
    return "hide" in line or "show" in line or any(p.match(line) for p in STACK_PATTERNS)


def paper_parse_success(program: str | None) -> bool:
    """Whether the published parser accepts the program."""
    return paper_parse_check(program).ok


@dataclass(frozen=True)
class PaperParser:
    """The published line matcher as a :class:`~scratch_gym.nl2scratch.interfaces.Parser`."""

    def available(self) -> bool:
        """Always: the matcher is pure Python."""
        return True

    def accepts(self, program: str) -> bool:
        return paper_parse_success(program)
